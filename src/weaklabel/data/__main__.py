"""Command line: ``python -m weaklabel.data list | fetch NAME...|--all | verify [NAME...]``."""

from __future__ import annotations

import argparse
import sys

from weaklabel.data._fetch import (
    CLI,
    ChecksumError,
    DataFileNotFoundError,
    cache_dir,
    dataset_info,
    fetch,
    is_cached,
    list_datasets,
    mirror_dirs,
    verify,
)

_LIST_FORMAT = "{:24s} {:>6} x {:<8} {:10s} {:>9}  {:8s}  {}"


def _list() -> None:
    print(_LIST_FORMAT.format("name", "rows", "features", "task", "size (MB)", "status",
                              "cached"))
    for name in list_datasets():
        info = dataset_info(name)
        v = info["verified"]
        size = sum(f["bytes"] for f in info["files"])
        n, total = is_cached(name)
        cached = "yes" if n == total else ("no" if n == 0 else f"{n} of {total} files")
        print(_LIST_FORMAT.format(name, v["rows"], v["features"], info["task"],
                                  f"{size / 1e6:.2f}", info["status"], cached))
    print(f"cache: {cache_dir()} (\"cached\": the files are there; `{CLI} verify` checks "
          "their sha256)")


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the process exit code (0 ok, 1 failure, 2 usage error)."""
    parser = argparse.ArgumentParser(
        prog=CLI,
        description="List, fetch and verify the registered datasets (cache: "
                    "$WEAKLABEL_DATA_DIR, mirrors: $WEAKLABEL_DATA_MIRROR).",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list registered datasets and whether they are cached")
    p_fetch = sub.add_parser("fetch", help="fetch datasets into the cache")
    p_fetch.add_argument("names", nargs="*", metavar="NAME")
    p_fetch.add_argument("--all", action="store_true", help="fetch every registered dataset")
    p_fetch.add_argument("--offline", action="store_true", help="never download")
    p_verify = sub.add_parser(
        "verify", help="check the sha256 of every local copy (cache and mirrors); "
                       "tells files not fetched yet from corrupt ones")
    p_verify.add_argument("names", nargs="*", metavar="NAME")
    p_verify.add_argument("--quiet", action="store_true", help="print failures only")
    args = parser.parse_args(argv)

    try:
        if args.command == "list":
            _list()
            return 0
        if args.command == "fetch":
            if args.all and args.names:
                parser.error("fetch: give dataset names or --all, not both")
            if not (args.all or args.names):
                parser.error(f"fetch: give dataset names or --all (`{CLI} list` lists them)")
            names = list_datasets() if args.all else args.names
            failed = []
            for name in names:
                try:
                    paths = fetch(name, download=not args.offline)
                except DataFileNotFoundError as exc:
                    if not args.all:
                        raise
                    print(f"error: {exc}", file=sys.stderr)
                    failed.append(name)
                    continue
                for fname, path in paths.items():
                    print(f"{name}/{fname}\t{path}")
            if failed:
                print(f"not fetched: {' '.join(failed)}", file=sys.stderr)
                return 1
            return 0
        report = verify(args.names or None)
        print(f"cache: {cache_dir()}; mirrors: {', '.join(map(str, mirror_dirs())) or '-'}")
        for res in report.results:
            if not (args.quiet and res.ok):
                print(res)
        print(report.summary())
        if report.corrupt:
            print("CORRUPT (sha256 mismatch): "
                  + " ".join(f"{r.dataset}/{r.file} ({r.path})" for r in report.corrupt),
                  file=sys.stderr)
        if report.not_fetched:
            missing = sorted({r.dataset for r in report.not_fetched})
            print(f"not fetched yet: run `{CLI} fetch {' '.join(missing)}`"
                  f"{' (or --all)' if len(missing) > 1 else ''}", file=sys.stderr)
        return 0 if report.ok else 1
    except (ValueError, DataFileNotFoundError, ChecksumError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
