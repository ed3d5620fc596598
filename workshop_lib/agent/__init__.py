"""Part 4: the agent that uses the retrieval layer (tools, loop, model choice, runs, long-term memory).

Modules: ``tools`` (the four tools and the read-only SQL guard), ``llm``
(litellm and readable failures), ``offline`` (the deterministic teaching
model registered with litellm), ``loop`` (``run_agent``), ``conversation``
(what each step sends), ``longterm`` (accepted memories in, drafts out) and
``runs`` (runs stored as OAMP threads).
"""

import os
import warnings

# litellm fetches its model price list from the network on import unless told
# not to: the workshop never needs prices, and offline machines would stall.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
# litellm's response types trip a pydantic notice on first use; it is about
# litellm's own typing and would only put noise on a notebook's stderr.
warnings.filterwarnings("ignore", message=r".*is using the `ReadOnly` qualifier", category=UserWarning)
