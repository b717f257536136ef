"""Generate ``registry.json`` (package data) from the shared ``manifest.json``.

Run once, when the shared data manifest changes::

    python -m weaklabel.data._make_registry ../shared/datasets/manifest.json

The manifest describes the files; this module adds what the package needs to read them:
the parser key, whether the problem is binary or multi-class, which raw label is the
positive class (``+1``) of a binary problem, and the USMO class prior where the paper
hard-codes one. The package never reads the manifest at run time.

File URLs
---------
Every file gets the URL of the exact upstream bytes (``raw.githubusercontent.com`` at a
pinned commit). Four text files are stored gzipped in the mirror (``a9a.gz``, ``a9a.t.gz``,
``shuttle.trn.gz``, ``mfeat-pixel.arff.gz``) but are plain text upstream; ``gzip -9 -n``
output is not reproducible across implementations, so a download cannot recreate the
stored ``.gz`` bytes. For those files the entry carries ``original`` (name, sha256, bytes
of the plain upstream file) and ``url`` points at the plain file: a download is verified
against ``original.sha256`` and cached under ``original.name``; a mirror copy is verified
against the stored ``sha256``. The readers accept both forms (they sniff the gzip magic).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from weaklabel._io import write_text

REGISTRY_PATH = Path(__file__).with_name("registry.json")

# parser key, task, raw labels mapped to +1 (binary only), and why.
_SPEC: dict[str, dict] = {
    "rssl-diabetes": {"parser": "rssl_rdata", "positive": [1.0],
                      "why": "target +1 (diabetic), as in RSSL"},
    "raetsch-banana": {"parser": "data_target_mat", "positive": [1], "why": "target +1"},
    "raetsch-thyroid": {"parser": "data_target_mat", "positive": [1],
                        "why": "target +1 = hyper + hypo (MCLS positive)"},
    "raetsch-waveform": {"parser": "data_target_mat", "positive": [1],
                         "why": "target +1 = UCI waveform class 1 (MCLS positive)"},
    "raetsch-flare-solar": {"parser": "data_target_mat", "positive": [1], "why": "target +1"},
    "lamda-sick": {"parser": "data_target_mat", "positive": [1], "why": "target +1 = sick"},
    "delve-ringnorm": {"parser": "delve", "positive": [0],
                       "why": "class 0 = the N(0, 4I) ring class, MCLS positive (3664/7400)"},
    "uci-new-thyroid": {"parser": "uci_new_thyroid", "positive": None,
                        "why": "3 classes (1 normal, 2 hyper, 3 hypo); MCLS positive = "
                               "one_vs_rest(y, [2, 3])"},
    "uci-waveform": {"parser": "uci_waveform", "positive": None,
                     "why": "3 classes (0, 1, 2); MCLS positive = one_vs_rest(y, 1)"},
    "uci-ionosphere": {"parser": "uci_ionosphere", "positive": ["g"],
                       "why": "g (good radar return) = MCLS positive (225/351)"},
    "statlog-heart": {"parser": "statlog_heart", "positive": [2],
                      "why": "class 2 = heart disease present (MCLS positive 120/270)"},
    "uci-haberman": {"parser": "uci_haberman", "positive": [2],
                     "why": "class 2 = died within 5 years (minority; no paper positive)"},
    "uci-german": {"parser": "uci_german", "positive": [2],
                   "why": "class 2 = bad credit (minority; no paper positive)"},
    "uci-echocardiogram": {"parser": "uci_echocardiogram", "positive": [1],
                           "why": "label column value 1 (still alive / alive at 1 year)"},
    "chapelle08-g50c": {"parser": "chapelle_mat", "positive": [1], "why": "y = +1"},
    "chapelle08-text": {"parser": "chapelle_mat", "positive": [1], "why": "y = +1"},
    "chapelle08-uspst": {"parser": "chapelle_mat", "positive": None, "why": "digits 0..9"},
    "cai-coil20": {"parser": "cai_mat", "positive": None, "why": "objects 1..20"},
    "openml-mfeat-pixel": {"parser": "arff", "positive": None,
                           "why": "classes 1..10 (= digits 0..9)"},
    "statlog-shuttle": {"parser": "statlog_shuttle", "positive": None, "why": "classes 1..7"},
    "libsvm-a9a": {"parser": "libsvm_a9a", "positive": [1], "why": "label +1 (income > 50K)"},
    "uci-bank-additional": {"parser": "bank_zip", "positive": ["yes"],
                            "why": "y = yes (subscribed a term deposit)"},
    "mnist": {"parser": "mnist_idx", "positive": None, "why": "digits 0..9"},
}


def _spec(dataset_id: str) -> dict:
    if dataset_id.startswith("usmo-"):
        return {"parser": "usmo_mat", "positive": [1], "why": "labels == 1 (USMO positive)"}
    return _SPEC[dataset_id]


def _file_urls(entry: dict) -> dict[str, str]:
    urls = entry["upstream_url"]
    origins = entry["origin"]
    if isinstance(urls, str):
        urls, origins = [urls], [origins]
    if len(urls) != len(origins):
        raise ValueError(f"{entry['id']}: {len(urls)} URLs but {len(origins)} origins")
    out = {}
    for url, origin in zip(urls, origins):
        if not url.endswith("/" + origin["path"]):
            raise ValueError(f"{entry['id']}: URL {url} does not end with {origin['path']}")
        out[origin["file"]] = url
    return out


def build(manifest: dict) -> dict:
    """Return the registry dictionary for a parsed manifest."""
    datasets = {}
    for entry in manifest["datasets"]:
        name = entry["id"]
        spec = _spec(name)
        urls = _file_urls(entry)
        files = []
        for f in entry["files"]:
            rec = {"name": f["name"], "sha256": f["sha256"], "bytes": f["bytes"],
                   "url": urls[f["name"]]}
            if "original" in f:
                rec["original"] = dict(f["original"])
            files.append(rec)
        notes = list(entry.get("notes", []))
        pi = None
        for note in notes:
            m = re.search(r"USMO demo prior pi = ([0-9.]+)", note)
            if m:
                pi = float(m.group(1).rstrip("."))
        verified = entry["verified"]
        datasets[name] = {
            "name": name,
            "description": entry["format"],
            "files": files,
            "parser": spec["parser"],
            "task": "binary" if spec["positive"] is not None else "multiclass",
            "positive": spec["positive"],
            "positive_reason": spec["why"],
            "usmo_pi": pi,
            "verified": {"rows": verified["rows"], "features": verified["features"],
                         "class_counts": verified["class_counts"]},
            "canonical_source": entry.get("canonical_source"),
            "license": entry.get("license"),
            "used_by": entry.get("used_by", []),
            "status": entry.get("status", "complete"),
            "notes": notes,
        }
    return {
        "about": "Generated by `python -m weaklabel.data._make_registry MANIFEST`; do not edit.",
        "datasets": dict(sorted(datasets.items())),
    }


def main(argv: list[str] | None = None) -> int:
    """Write ``registry.json`` next to this module from the manifest given as argument."""
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python -m weaklabel.data._make_registry MANIFEST", file=sys.stderr)
        return 2
    manifest = json.loads(Path(argv[0]).read_text())
    registry = build(manifest)
    write_text(json.dumps(registry, indent=1, sort_keys=False) + "\n", REGISTRY_PATH)
    REGISTRY_PATH.chmod(0o644)  # the atomic write creates the file 0600
    print(f"wrote {REGISTRY_PATH} ({len(registry['datasets'])} datasets)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
