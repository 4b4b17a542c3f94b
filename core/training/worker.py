"""Child-process entry point: `python -m core.worker --workspace W --job ID` runs one queued training job."""

from __future__ import annotations

import argparse
import sys
import traceback

from core.errors import MireadError
from core.store import Store
from core.training.jobs import execute, get_job


def main(argv: list[str] | None = None) -> int:
    """Run the job; its outcome goes to the store, details of a crash to this process's log."""
    parser = argparse.ArgumentParser(prog="python -m core.worker", description=__doc__)
    parser.add_argument("--workspace", required=True)
    parser.add_argument("--job", required=True)
    args = parser.parse_args(argv)
    store = Store(args.workspace)
    print(f"job {args.job}: worker started", flush=True)
    try:
        execute(store, args.job)
        job = get_job(store, args.job)
        print(f"job {args.job}: {job['status']}{': ' + job['error'] if job['error'] else ''}", flush=True)
    except MireadError as exc:
        print(exc, file=sys.stderr)
        return 2
    except Exception:
        traceback.print_exc()
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
