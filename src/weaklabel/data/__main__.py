"""Command line: ``python -m weaklabel.data list | fetch NAME... | verify [NAME...]``."""

from __future__ import annotations

import argparse
import sys

from weaklabel.data._fetch import (
    ChecksumError,
    DataFileNotFoundError,
    cache_dir,
    dataset_info,
    fetch,
    list_datasets,
    mirror_dirs,
    verify,
)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the process exit code (0 ok, 1 failure, 2 usage error)."""
    parser = argparse.ArgumentParser(
        prog="python -m weaklabel.data",
        description="List, fetch and verify the registered datasets (cache: "
                    "$WEAKLABEL_DATA_DIR, mirrors: $WEAKLABEL_DATA_MIRROR).",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list registered datasets")
    p_fetch = sub.add_parser("fetch", help="fetch datasets into the cache")
    p_fetch.add_argument("names", nargs="+", metavar="NAME")
    p_fetch.add_argument("--offline", action="store_true", help="never download")
    p_verify = sub.add_parser("verify", help="check the sha256 of every local copy")
    p_verify.add_argument("names", nargs="*", metavar="NAME")
    p_verify.add_argument("--quiet", action="store_true", help="print failures only")
    args = parser.parse_args(argv)

    try:
        if args.command == "list":
            for name in list_datasets():
                info = dataset_info(name)
                v = info["verified"]
                size = sum(f["bytes"] for f in info["files"])
                print(f"{name:24s} {v['rows']:>6} x {v['features']:<5} {info['task']:10s} "
                      f"{size / 1e6:6.2f} MB  {info['status']}")
            return 0
        if args.command == "fetch":
            for name in args.names:
                for fname, path in fetch(name, download=not args.offline).items():
                    print(f"{name}/{fname}\t{path}")
            return 0
        report = verify(args.names or None)
        print(f"cache: {cache_dir()}; mirrors: {', '.join(map(str, mirror_dirs())) or '-'}")
        for res in report.results:
            if not (args.quiet and res.ok):
                print(res)
        n_fail = len(report.failures)
        print(f"{len(report.results) - n_fail} ok, {n_fail} failed")
        if n_fail:
            print("FAILED: " + " ".join(f"{r.dataset}/{r.file}" for r in report.failures),
                  file=sys.stderr)
            return 1
        return 0
    except (ValueError, DataFileNotFoundError, ChecksumError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
