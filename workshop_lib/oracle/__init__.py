"""Oracle-mode operations: bootstrap, doctor, waiting for the database, and class provisioning.

The CLI (``workshop setup / doctor / provision``) calls these plain functions;
notebooks never need them. Submodules import python-oracledb and the other
workshop modules lazily, so importing this package is cheap.
"""

from __future__ import annotations

# The bootstrap *function* lives in .bootstrap and is not re-exported here, so that
# `workshop_lib.oracle.bootstrap` stays the module: `from workshop_lib.oracle.bootstrap import bootstrap`.
from .bootstrap import BootstrapReport, OracleSetupError, StepResult
from .diagnosis import Diagnosis, diagnose
from .doctor import Check, DoctorReport, doctor_oracle
from .provision import LearnerAccount, connection_sheet, provision_learners, write_connection_sheet
from .waiting import DatabaseNotReady, wait_for_database

__all__ = [
    "BootstrapReport",
    "Check",
    "DatabaseNotReady",
    "Diagnosis",
    "DoctorReport",
    "LearnerAccount",
    "OracleSetupError",
    "StepResult",
    "connection_sheet",
    "diagnose",
    "provision_learners",
    "doctor_oracle",
    "wait_for_database",
    "write_connection_sheet",
]
