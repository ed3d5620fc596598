# shellcheck shell=bash
# Sized by the workshop: the Vector Pool holds OAMP's in-memory HNSW index (without
# it, CREATE VECTOR INDEX fails with ORA-51962). The Oracle image sources this file
# (runUserScripts.sh, as the oracle OS user, connected AS SYSDBA to CDB$ROOT) every
# time the database starts, so it only acts when the pool is smaller than wanted.
# It is sourced, not executed: no `exit`, no `set -e`.
#
# When the instance only takes the new size in the SPFILE, the hook restarts it, and a
# login that succeeded before the restart loses its session. So "ready" means: the hook
# has finished. It removes WORKSHOP_HOOK_DONE when it starts and creates it when it is done
# (whatever the outcome); the compose healthcheck requires that file, and
# `python -m workshop_lib.oracle wait --vector-pool-mb N` waits for the sized pool itself.
# /dev/shm is the container's own tmpfs, so a file left from an earlier start never counts.
WORKSHOP_HOOK_DONE="${WORKSHOP_HOOK_DONE:-/dev/shm/workshop-vector-pool.done}"

workshop_size_vector_pool() {
  rm -f "$WORKSHOP_HOOK_DONE"
  local want_mb="${WORKSHOP_VECTOR_POOL_MB:-256}"
  local sqlplus="${ORACLE_HOME}/bin/sqlplus"
  local state
  case "$want_mb" in
    '' | *[!0-9]*)
      echo "workshop: WORKSHOP_VECTOR_POOL_MB must be a whole number of MB, got '${want_mb}'"
      touch "$WORKSHOP_HOOK_DONE"
      return 0
      ;;
  esac

  state=$("$sqlplus" -s / as sysdba <<SQL
SET HEADING OFF FEEDBACK OFF PAGESIZE 0 VERIFY OFF SERVEROUTPUT ON
WHENEVER SQLERROR CONTINUE
DECLARE
  wanted CONSTANT NUMBER := ${want_mb} * 1024 * 1024;
  current_bytes NUMBER;
BEGIN
  SELECT TO_NUMBER(value) INTO current_bytes FROM v\$parameter WHERE name = 'vector_memory_size';
  IF current_bytes >= wanted THEN
    DBMS_OUTPUT.PUT_LINE('WORKSHOP_POOL=ok');
    RETURN;
  END IF;
  BEGIN
    EXECUTE IMMEDIATE 'ALTER SYSTEM SET vector_memory_size = ${want_mb}M SCOPE = BOTH';
    DBMS_OUTPUT.PUT_LINE('WORKSHOP_POOL=set');
  EXCEPTION
    WHEN OTHERS THEN
      -- Some memory configurations only accept the new size at the next start.
      EXECUTE IMMEDIATE 'ALTER SYSTEM SET vector_memory_size = ${want_mb}M SCOPE = SPFILE';
      DBMS_OUTPUT.PUT_LINE('WORKSHOP_POOL=restart');
  END;
END;
/
EXIT
SQL
)

  case "$state" in
    *WORKSHOP_POOL=ok*) echo "workshop: vector_memory_size is already at least ${want_mb}M" ;;
    *WORKSHOP_POOL=set*) echo "workshop: vector_memory_size set to ${want_mb}M" ;;
    *WORKSHOP_POOL=restart*)
      echo "workshop: vector_memory_size=${want_mb}M takes effect after a restart; restarting once"
      "$sqlplus" -s / as sysdba <<SQL
WHENEVER SQLERROR CONTINUE
SHUTDOWN IMMEDIATE
STARTUP
ALTER PLUGGABLE DATABASE ALL OPEN;
EXIT
SQL
      ;;
    *) echo "workshop: could not size the vector pool: ${state}" ;;
  esac
  touch "$WORKSHOP_HOOK_DONE"
  echo "workshop: vector pool hook done"
}

workshop_size_vector_pool
