"""Tests of weaklabel.data: registry, checksum-verified fetching, loaders and defect fixes.

Data tests use the dataset mirror of ``conftest.py`` (``$WEAKLABEL_DATA_MIRROR`` when set, else
``../shared/datasets``; skipped, with the reason, when there is none) and a temporary cache,
so they never touch the user cache and never need the network. The command-line tests at the
end run on a tiny fake registry and mirror in a temporary directory, without the shared data.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from conftest import DATA_MIRROR, NO_MIRROR_REASON, needs_mirror

from weaklabel.data import (
    ChecksumError,
    DataFileNotFoundError,
    dataset_info,
    fetch,
    list_datasets,
    load,
    one_vs_rest,
    verify,
)
from weaklabel.data import _fetch as fetch_mod
from weaklabel.data.__main__ import main as cli_main

REPO = Path(__file__).resolve().parents[1]
MIRROR = DATA_MIRROR if DATA_MIRROR is not None else Path("no-data-mirror")
HAVE_MIRROR = DATA_MIRROR is not None

# load() widths that differ from the manifest's raw attribute count, and why.
ENCODED_FEATURES = {
    "uci-haberman": 14,  # age + nodes + one-hot of 12 operation years (WellSVM Table 1)
    "uci-german": 59,  # one-hot of 13 categorical attributes + 7 numeric (WellSVM Table 1)
    "uci-bank-additional": 62,  # one-hot of 10 categorical inputs + 10 numeric
    "uci-echocardiogram": 8,  # the 8 clinical columns age..mult (WellSVM d = 8)
}


@pytest.fixture(scope="session")
def manifest() -> dict:
    if not HAVE_MIRROR:
        pytest.skip(NO_MIRROR_REASON)
    return {e["id"]: e for e in json.loads((MIRROR / "manifest.json").read_text())["datasets"]}


@pytest.fixture(scope="session")
def shared_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("weaklabel-cache")


@pytest.fixture
def data_env(monkeypatch, shared_cache):
    """The shared mirror and a session-wide temporary cache; downloads disabled."""
    if not HAVE_MIRROR:
        pytest.skip(NO_MIRROR_REASON)
    monkeypatch.setenv("WEAKLABEL_DATA_DIR", str(shared_cache))
    monkeypatch.setenv("WEAKLABEL_DATA_MIRROR", str(MIRROR))
    monkeypatch.setenv("WEAKLABEL_DATA_OFFLINE", "1")
    return shared_cache


@pytest.fixture
def fresh_env(monkeypatch, tmp_path):
    """An empty cache and an empty mirror of this test only; downloads disabled."""
    cache, mirror = tmp_path / "cache", tmp_path / "mirror"
    cache.mkdir()
    mirror.mkdir()
    monkeypatch.setenv("WEAKLABEL_DATA_DIR", str(cache))
    monkeypatch.setenv("WEAKLABEL_DATA_MIRROR", str(mirror))
    monkeypatch.setenv("WEAKLABEL_DATA_OFFLINE", "1")
    return cache, mirror


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _flip_byte(path: Path, offset: int = 100) -> None:
    b = bytearray(path.read_bytes())
    b[offset % len(b)] ^= 0xFF
    path.write_bytes(bytes(b))


# --------------------------------------------------------------------------- registry


def test_registry_lists_35_datasets_43_files():
    names = list_datasets()
    assert len(names) == 35
    assert sum(len(dataset_info(n)["files"]) for n in names) == 43
    for n in names:
        info = dataset_info(n)
        assert info["parser"]
        assert info["task"] in {"binary", "multiclass"}
        for f in info["files"]:
            assert f["url"].startswith("https://raw.githubusercontent.com/")


@needs_mirror
def test_registry_matches_manifest(manifest):
    assert sorted(manifest) == list_datasets()
    for name, entry in manifest.items():
        info = dataset_info(name)
        reg = {f["name"]: f for f in info["files"]}
        assert sorted(reg) == sorted(f["name"] for f in entry["files"])
        for f in entry["files"]:
            assert reg[f["name"]]["sha256"] == f["sha256"]
            assert reg[f["name"]]["bytes"] == f["bytes"]
            assert reg[f["name"]].get("original") == f.get("original")
        assert info["verified"]["rows"] == entry["verified"]["rows"]
        assert info["verified"]["class_counts"] == entry["verified"]["class_counts"]


def test_gz_stored_files_point_at_the_plain_upstream_file():
    rec = {f["name"]: f for f in dataset_info("libsvm-a9a")["files"]}["a9a.gz"]
    assert rec["url"].endswith("/a9a")
    assert rec["original"]["name"] == "a9a"


# --------------------------------------------------------------------------- every dataset


@needs_mirror
@pytest.mark.parametrize("name", list_datasets())
def test_every_dataset_loads_with_manifest_figures(name, data_env, manifest):
    verified = manifest[name]["verified"]
    ds = load(name)
    X = ds.X
    assert isinstance(X, np.ndarray) and X.dtype == np.float64 and X.ndim == 2
    assert np.all(np.isfinite(X))
    assert X.shape[0] == ds.y.shape[0] == ds.y_raw.shape[0]
    rows = 10000 if name == "mnist" else verified["rows"]
    assert X.shape == (rows, ENCODED_FEATURES.get(name, verified["features"]))
    counts = Counter(str(v) for v in ds.y_raw.tolist())
    if name == "mnist":  # X = the test images; the verified counts are the 60000 train labels
        train = Counter(str(v) for v in ds.meta["train_labels"].tolist())
        assert train == verified["class_counts"]
        assert counts == verified["extra"]["t10k_class_counts"]
    elif name == "uci-echocardiogram":
        assert counts == verified["class_counts"]["still-alive (col 2)"]
    else:
        assert counts == verified["class_counts"]
    if ds.meta["task"] == "binary":
        assert set(np.unique(ds.y).tolist()) == {-1.0, 1.0}
        pos = {str(p) for p in ds.meta["positive"]}
        assert int(np.sum(ds.y > 0)) == sum(c for k, c in counts.items() if k in pos)
        assert ds.meta["prior"] == pytest.approx(np.mean(ds.y > 0))
    else:
        assert np.issubdtype(ds.y.dtype, np.integer)


@needs_mirror
def test_usmo_priors_in_meta(data_env):
    ds = load("usmo-australian")
    assert ds.meta["usmo_pi"] == 0.56
    assert round(ds.meta["prior"], 2) == 0.56


# --------------------------------------------------------------------------- errors


def test_unknown_name_lists_close_matches():
    with pytest.raises(ValueError, match="usmo-australia") as exc:
        load("usmo-australia")
    assert "usmo-australian" in str(exc.value)
    with pytest.raises(ValueError, match="not a registered dataset"):
        fetch("no-such-data")


def test_missing_file_names_dataset_and_file(fresh_env):
    with pytest.raises(DataFileNotFoundError, match=r"usmo-house/house\.mat"):
        fetch("usmo-house")
    with pytest.raises(DataFileNotFoundError, match=r"usmo-house/house\.mat"):
        load("usmo-house", download=False)


@needs_mirror
def test_corrupted_mirror_file_is_an_error_naming_file_and_hashes(fresh_env):
    cache, mirror = fresh_env
    (mirror / "usmo-house").mkdir()
    bad = mirror / "usmo-house" / "house.mat"
    shutil.copyfile(MIRROR / "usmo-house" / "house.mat", bad)
    _flip_byte(bad)
    expected = dataset_info("usmo-house")["files"][0]["sha256"]
    with pytest.raises(ChecksumError) as exc:
        load("usmo-house")
    msg = str(exc.value)
    assert "house.mat" in msg and expected in msg and _sha(bad) in msg
    assert not (cache / "usmo-house" / "house.mat").exists()  # nothing entered the cache


@needs_mirror
def test_corrupted_cached_file_is_never_reused(fresh_env, monkeypatch):
    cache, _ = fresh_env
    monkeypatch.setenv("WEAKLABEL_DATA_MIRROR", str(MIRROR))
    path = fetch("usmo-house")["house.mat"]
    assert path.parent == cache / "usmo-house"
    _flip_byte(path)
    corrupted = path.read_bytes()
    expected = dataset_info("usmo-house")["files"][0]["sha256"]
    with pytest.raises(ChecksumError) as exc:
        load("usmo-house")
    msg = str(exc.value)
    assert "house.mat" in msg and expected in msg and _sha(path) in msg
    assert path.read_bytes() == corrupted  # not silently replaced either


@needs_mirror
def test_mirror_order_and_cache_use(fresh_env, monkeypatch):
    cache, empty = fresh_env
    monkeypatch.setenv("WEAKLABEL_DATA_MIRROR", os.pathsep.join([str(empty), str(MIRROR)]))
    p = fetch("usmo-heart")["heart.mat"]
    assert p == cache / "usmo-heart" / "heart.mat" and _sha(p) == _sha(MIRROR / p.parent.name
                                                                      / "heart.mat")
    monkeypatch.setenv("WEAKLABEL_DATA_MIRROR", str(empty))  # now served from the cache
    assert load("usmo-heart").X.shape == (270, 9)


@needs_mirror
def test_plain_upstream_copy_of_gz_stored_file(data_env, monkeypatch, tmp_path):
    """A mirror (or a download) may hold the plain upstream a9a; it is checked against
    the original sha256 and read the same way."""
    ref = load("libsvm-a9a")
    cache, mirror = tmp_path / "cache", tmp_path / "mirror"
    monkeypatch.setenv("WEAKLABEL_DATA_DIR", str(cache))
    monkeypatch.setenv("WEAKLABEL_DATA_MIRROR", str(mirror))
    (mirror / "libsvm-a9a").mkdir(parents=True)
    for gz in ("a9a.gz", "a9a.t.gz"):
        with gzip.open(MIRROR / "libsvm-a9a" / gz) as src:
            (mirror / "libsvm-a9a" / gz[:-3]).write_bytes(src.read())
    paths = fetch("libsvm-a9a")
    assert paths["a9a.gz"].name == "a9a"
    ds = load("libsvm-a9a")
    np.testing.assert_array_equal(ds.X, ref.X)
    np.testing.assert_array_equal(ds.y_test, ref.y_test)


def test_download_uses_upstream_url_and_original_hash(fresh_env, monkeypatch):
    monkeypatch.delenv("WEAKLABEL_DATA_OFFLINE")
    calls = []

    def fake(url, sha, fname, path, downloader, dataset, source):
        calls.append((url, sha, fname))
        raise ConnectionError("offline test")

    monkeypatch.setattr(fetch_mod, "_retrieve", fake)
    with pytest.raises(DataFileNotFoundError, match=r"libsvm-a9a/a9a\.gz.*offline test"):
        fetch("libsvm-a9a")
    rec = {f["name"]: f for f in dataset_info("libsvm-a9a")["files"]}["a9a.gz"]
    assert calls == [(rec["url"], rec["original"]["sha256"], "a9a")]


# --------------------------------------------------------------------------- verify / CLI


@needs_mirror
def test_verify_report_ok_and_mismatch(fresh_env, monkeypatch):
    cache, mirror = fresh_env
    monkeypatch.setenv("WEAKLABEL_DATA_MIRROR", str(MIRROR))
    rep = verify(["usmo-house", "uci-german"])
    n_files = sum(len(dataset_info(n)["files"]) for n in ("usmo-house", "uci-german"))
    assert rep.ok and len(rep.results) == n_files  # one result per file, not per copy
    shutil.copytree(MIRROR / "usmo-house", mirror / "usmo-house")
    _flip_byte(mirror / "usmo-house" / "house.mat")
    monkeypatch.setenv("WEAKLABEL_DATA_MIRROR", str(mirror))
    rep = verify("usmo-house")
    assert not rep.ok and [r.file for r in rep.failures] == ["house.mat"]
    assert "house.mat" in str(rep)
    with pytest.raises(ChecksumError, match=r"house\.mat"):
        verify("usmo-house", raise_on_error=True)
    rep = verify("usmo-heart")
    assert rep.failures[0].status == "not fetched"
    assert "weaklabel.data fetch usmo-heart" in str(rep.failures[0])


@needs_mirror
def test_cli_verify_fails_naming_the_flipped_file(fresh_env, capsys):
    _, mirror = fresh_env
    shutil.copytree(MIRROR / "usmo-house", mirror / "usmo-house")
    _flip_byte(mirror / "usmo-house" / "house.mat")
    assert cli_main(["verify", "usmo-house"]) == 1
    out, err = capsys.readouterr()
    assert "house.mat" in out and "usmo-house/house.mat" in err and "CORRUPT" in err
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(REPO / "src"), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-m", "weaklabel.data", "verify", "usmo-house"],
                          capture_output=True, text=True, env=env, check=False)
    assert proc.returncode != 0
    assert "usmo-house/house.mat" in proc.stderr


@needs_mirror
def test_cli_list_fetch_verify_ok(data_env, capsys):
    assert cli_main(["list"]) == 0
    assert "usmo-australian" in capsys.readouterr().out
    assert cli_main(["fetch", "usmo-house", "--offline"]) == 0
    assert "house.mat" in capsys.readouterr().out
    assert cli_main(["verify", "usmo-house"]) == 0
    assert cli_main(["fetch", "nope"]) == 1
    assert "not a registered dataset" in capsys.readouterr().err


# --------------------------------------------------------------------------- defect fixes


@needs_mirror
def test_shuttle_line1_defect_fixed(data_env):
    with gzip.open(MIRROR / "statlog-shuttle" / "shuttle.trn.gz", "rt") as fh:
        assert fh.readline().split()[0] == "0"  # the mirror's defect
    ds = load("statlog-shuttle")
    assert ds.X[0, 0] == 50.0
    np.testing.assert_array_equal(ds.X[0, 1:], [21, 77, 0, 28, 0, 27, 48, 22])
    assert ds.X_test.shape == (14500, 9)
    assert Counter(ds.y_test.tolist())[1] == 11478


@needs_mirror
@pytest.mark.parametrize(
    ("name", "first_x", "first_y"),
    [
        ("uci-new-thyroid", [107, 10.1, 2.2, 0.9, 2.7], 1),
        ("uci-waveform", [-1.23, -1.56, -1.75], 2),
        ("uci-ionosphere", [1, 0, 0.99539, -0.05889], "g"),
        ("statlog-heart", [70, 1, 4, 130, 322], 2),
    ],
)
def test_mirror_header_line_skipped(name, first_x, first_y, data_env, manifest):
    ds = load(name)
    assert ds.X.shape[0] == manifest[name]["verified"]["rows"]
    np.testing.assert_allclose(ds.X[0, : len(first_x)], first_x)
    assert ds.y_raw[0] == first_y


@needs_mirror
def test_haberman_header_and_onehot(data_env):
    ds = load("uci-haberman")
    assert ds.X.shape == (306, 14)
    names = ds.meta["feature_names"]
    assert names[:2] == ["age", "nodes"] and len([n for n in names if n.startswith("year=")]) == 12
    assert ds.X[0, 0] == 30 and ds.X[0, 1] == 1 and ds.X[0, names.index("year=64")] == 1
    assert np.all(ds.X[:, 2:].sum(axis=1) == 1)
    raw = load("uci-haberman", onehot=False)
    assert raw.X.shape == (306, 3)
    np.testing.assert_array_equal(raw.X[0], [30, 64, 1])


@needs_mirror
def test_german_encodings(data_env):
    ds = load("uci-german")
    assert ds.X.shape == (1000, 59)
    assert set(np.unique(ds.X[:, [i for i, n in enumerate(ds.meta["feature_names"])
                                  if "=" in n]])) == {0.0, 1.0}
    assert load("uci-german", encoding="ordinal").X.shape == (1000, 20)
    num = load("uci-german", encoding="numeric")
    assert num.X.shape == (1000, 24)
    np.testing.assert_array_equal(num.y, ds.y)
    with pytest.raises(ValueError, match="encoding"):
        load("uci-german", encoding="dummy")


@needs_mirror
def test_a9a_has_123_features(data_env):
    ds = load("libsvm-a9a")
    assert ds.X.shape == (32561, 123) and ds.X_test.shape == (16281, 123)
    assert Counter(ds.y_test.tolist()) == {-1.0: 12435, 1.0: 3846}
    sparse = load("libsvm-a9a", sparse=True)
    assert sparse.X.format == "csr" and sparse.X.shape == (32561, 123)


@needs_mirror
def test_echocardiogram_missing_values_and_label_choice(data_env):
    ds = load("uci-echocardiogram")
    assert ds.X.shape == (131, 8) and np.all(np.isfinite(ds.X))
    assert ds.meta["label"] == "still-alive" and ds.meta["n_missing_values"] > 0
    assert Counter(ds.y_raw.tolist()) == {0: 88, 1: 43}
    a1 = load("uci-echocardiogram", label="alive-at-1")
    assert a1.X.shape == (74, 8) and Counter(a1.y_raw.tolist()) == {0: 50, 1: 24}
    dropped = load("uci-echocardiogram", missing="drop")
    assert dropped.X.shape[0] < 131 and np.all(np.isfinite(dropped.X))
    with pytest.raises(ValueError, match="label"):
        load("uci-echocardiogram", label="survival")


@needs_mirror
def test_bank_zip_onehot(data_env):
    ds = load("uci-bank-additional")
    assert ds.X.shape == (41188, 62) and "contact=telephone" in ds.meta["feature_names"]
    assert Counter(ds.y.tolist()) == {-1.0: 36548, 1.0: 4640}
    assert load("uci-bank-additional", encoding="ordinal").X.shape == (41188, 20)


@needs_mirror
def test_predefined_splits(data_env):
    for name in ("chapelle08-g50c", "chapelle08-uspst"):
        ds = load(name)
        lab, unl = ds.splits["labelled"], ds.splits["unlabelled"]
        assert lab.shape == (10, 50) and unl.shape == (10, ds.X.shape[0] - 50)
        for i in range(10):
            np.testing.assert_array_equal(np.sort(np.r_[lab[i], unl[i]]),
                                          np.arange(ds.X.shape[0]))
    r = load("rssl-diabetes")
    assert r.splits["labelled"].shape == (30, 86) and r.splits["test"].shape == (30, 192)
    s0 = np.r_[r.splits["labelled"][0], r.splits["unlabelled"][0], r.splits["test"][0]]
    np.testing.assert_array_equal(np.sort(s0), np.arange(768))
    assert Counter(r.y[r.splits["labelled"][0]].tolist()) == {-1.0: 55, 1.0: 31}
    np.testing.assert_array_equal(r.X, load("usmo-diabetes").X)


@needs_mirror
def test_text_is_sparse_on_request(data_env):
    ds = load("chapelle08-text", sparse=True)
    assert ds.X.format == "csr" and ds.X.nnz == 106221


@needs_mirror
def test_mnist_test_images(data_env):
    ds = load("mnist")
    assert ds.X.shape == (10000, 784) and ds.X.max() == 255
    assert ds.meta["train_labels"].shape == (60000,)


@needs_mirror
def test_one_vs_rest_for_mcls_binarisations(data_env):
    assert int((one_vs_rest(load("uci-new-thyroid").y, [2, 3]) > 0).sum()) == 65
    assert int((one_vs_rest(load("uci-waveform").y, 1) > 0).sum()) == 1647
    assert int((load("delve-ringnorm").y > 0).sum()) == 3664


def test_one_vs_rest_validates():
    y = np.array([1, 2, 3, 2])
    np.testing.assert_array_equal(one_vs_rest(y, 2), [-1, 1, -1, 1])
    np.testing.assert_array_equal(one_vs_rest(np.array(["a", "b"], dtype=object), "b"), [-1, 1])
    with pytest.raises(ValueError, match="cls"):
        one_vs_rest(y, 7)
    with pytest.raises(ValueError, match="1-D"):
        one_vs_rest(y.reshape(2, 2), 1)


@needs_mirror
def test_unknown_option_is_a_type_error(data_env):
    with pytest.raises(TypeError, match="onehot"):
        load("usmo-house", onehot=True)


# --------------------------------------------------------------------------- CLI on a fake registry

CMD = "python -m weaklabel.data"
TINY = {"tiny-a": {"a.txt": b"1 2\n3 4\n"}, "tiny-b": {"b1.txt": b"x\n", "b2.txt": b"y\n"}}


@pytest.fixture
def tiny(monkeypatch, tmp_path):
    """A two-dataset, three-file registry with its own mirror and an empty cache."""
    cache, mirror = tmp_path / "cache", tmp_path / "mirror"
    cache.mkdir()
    reg = {}
    for name, files in TINY.items():
        (mirror / name).mkdir(parents=True)
        recs = []
        for fname, data in files.items():
            src = mirror / name / fname
            src.write_bytes(data)
            src.chmod(0o600)  # the cached copy's mode must not depend on the mirror's
            recs.append({"name": fname, "sha256": hashlib.sha256(data).hexdigest(),
                         "bytes": len(data), "url": f"https://example.invalid/{fname}"})
        reg[name] = {"name": name, "files": recs, "parser": "none", "task": "binary",
                     "status": "complete", "verified": {"rows": 2, "features": 2}}
    monkeypatch.setattr(fetch_mod, "_registry", lambda: reg)
    monkeypatch.setenv("WEAKLABEL_DATA_DIR", str(cache))
    monkeypatch.setenv("WEAKLABEL_DATA_MIRROR", str(mirror))
    monkeypatch.setenv("WEAKLABEL_DATA_OFFLINE", "1")
    return cache, mirror


def _cached_column(out: str) -> dict[str, str]:
    lines = out.splitlines()
    header = lines[0]
    at = header.index("cached")
    return {ln.split()[0]: ln[at:].strip() for ln in lines[1:] if ln.startswith("tiny-")}


def test_cli_list_has_a_header_and_a_cached_column(tiny, capsys):
    cache, mirror = tiny
    assert cli_main(["list"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["name", "rows", "x", "features", "task", "size",
                                           "(MB)", "status", "cached"]
    assert _cached_column(out) == {"tiny-a": "no", "tiny-b": "no"}
    assert cli_main(["fetch", "tiny-a"]) == 0
    (cache / "tiny-b").mkdir()
    shutil.copyfile(mirror / "tiny-b" / "b1.txt", cache / "tiny-b" / "b1.txt")
    capsys.readouterr()
    assert cli_main(["list"]) == 0
    assert _cached_column(capsys.readouterr().out) == {"tiny-a": "yes",
                                                       "tiny-b": "1 of 2 files"}


def test_cli_fetch_all_and_cached_files_are_world_readable(tiny, capsys):
    cache, _ = tiny
    assert cli_main(["fetch", "--all"]) == 0
    out = capsys.readouterr().out
    for name, files in TINY.items():
        for fname, data in files.items():
            path = cache / name / fname
            assert f"{name}/{fname}" in out and path.read_bytes() == data
            assert path.stat().st_mode & 0o777 == 0o644
    for argv in (["fetch"], ["fetch", "--all", "tiny-a"]):
        with pytest.raises(SystemExit) as exc:
            cli_main(argv)
        assert exc.value.code == 2
    assert "--all" in capsys.readouterr().err


def test_cli_fetch_all_names_what_it_could_not_fetch(tiny, capsys):
    _, mirror = tiny
    (mirror / "tiny-b" / "b2.txt").unlink()
    assert cli_main(["fetch", "--all"]) == 1
    captured = capsys.readouterr()
    assert "tiny-a/a.txt" in captured.out
    assert "tiny-b/b2.txt" in captured.err and "not fetched: tiny-b" in captured.err


def test_verify_tells_not_fetched_from_corrupt_and_counts_files(tiny, capsys):
    cache, mirror = tiny
    assert cli_main(["fetch", "tiny-a"]) == 0  # a.txt now has two copies: cache and mirror
    rep = verify()
    assert rep.ok and len(rep.results) == 3  # files, not copies
    assert len(rep.results[0].copies) == 2
    assert rep.summary() == "3 files: 3 ok, 0 not fetched yet, 0 corrupt"

    (mirror / "tiny-b" / "b2.txt").unlink()
    _flip_byte(cache / "tiny-a" / "a.txt", offset=0)
    rep = verify()
    assert [(r.file, r.status) for r in rep.results] == [
        ("a.txt", "corrupt"), ("b1.txt", "ok"), ("b2.txt", "not fetched")]
    assert rep.summary() == "3 files: 1 ok, 1 not fetched yet, 1 corrupt"
    corrupt, missing = rep.corrupt[0], rep.not_fetched[0]
    assert corrupt.path == str(cache / "tiny-a" / "a.txt") and corrupt.path in str(corrupt)
    assert "sha256 mismatch" in str(corrupt) and corrupt.expected in str(corrupt)
    assert f"{CMD} fetch tiny-b" in str(missing) and "sha256" not in str(missing)

    capsys.readouterr()
    assert cli_main(["verify"]) == 1
    out, err = capsys.readouterr()
    assert "3 files: 1 ok, 1 not fetched yet, 1 corrupt" in out
    assert "CORRUPT" in err and "tiny-a/a.txt" in err and "tiny-b/b2.txt" not in err.split(
        "\n")[0]
    assert f"not fetched yet: run `{CMD} fetch tiny-b`" in err
    with pytest.raises(ChecksumError, match=r"tiny-a/a\.txt"):
        verify(raise_on_error=True)
    with pytest.raises(DataFileNotFoundError, match=r"tiny-b/b2\.txt"):
        verify("tiny-b", raise_on_error=True)


def test_errors_name_the_command_line(tiny, capsys):
    cache, mirror = tiny
    with pytest.raises(ValueError) as exc:
        dataset_info("tiny-c")
    assert f"`{CMD} list`" in str(exc.value) and "list_datasets" not in str(exc.value)
    assert "tiny-a" in str(exc.value)  # close matches
    (mirror / "tiny-a" / "a.txt").unlink()
    with pytest.raises(DataFileNotFoundError, match=f"`{CMD} fetch tiny-a`"):
        fetch("tiny-a")
    assert cli_main(["fetch", "tiny-c"]) == 1
    assert f"`{CMD} list`" in capsys.readouterr().err
    fetch("tiny-b")
    _flip_byte(cache / "tiny-b" / "b1.txt", offset=0)
    with pytest.raises(ChecksumError, match=f"`{CMD} fetch tiny-b`"):
        fetch("tiny-b")


# --------------------------------------------------------------------------- the tests themselves


def test_the_mirror_of_the_tests_honours_the_environment(monkeypatch, tmp_path):
    import conftest

    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "manifest.json").write_text("{}")
    monkeypatch.setenv("WEAKLABEL_DATA_MIRROR", os.pathsep.join(
        [str(tmp_path / "empty"), str(tmp_path / "m")]))
    assert conftest._find_mirror() == tmp_path / "m"
    monkeypatch.setenv("WEAKLABEL_DATA_MIRROR", str(tmp_path / "empty"))
    assert conftest._find_mirror() is None  # set: never falls back to ../shared/datasets
    monkeypatch.delenv("WEAKLABEL_DATA_MIRROR")
    shared = conftest.SHARED_DATA
    expected = shared if (shared / "manifest.json").is_file() else None
    assert conftest._find_mirror() == expected


def test_tests_hold_no_absolute_path_of_a_machine():
    prefixes = ["/" + p for p in ("work", "root", "home", "tmp/")]
    offenders = [
        f"{path.name}:{i}"
        for path in sorted((REPO / "tests").glob("*.py"))
        for i, line in enumerate(path.read_text().splitlines(), 1)
        if any(q + p in line for p in prefixes for q in ("'", '"'))
    ]
    assert offenders == []
