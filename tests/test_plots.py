"""weaklabel.plots: the figure style, readable log axes and atomic, reproducible saving."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from weaklabel import plots  # noqa: E402


@pytest.fixture
def fig():
    f, ax = plt.subplots(figsize=(3, 2))
    ax.plot([250, 1000, 8000], [0.02, 3.0, 400.0], marker="o")
    yield f
    plt.close(f)


def test_save_writes_png_and_pdf_under_figures_paper(tmp_path, fig):
    paths = plots.save(fig, "usmo", "curve", root=tmp_path)
    assert paths == [tmp_path / "usmo" / "curve.png", tmp_path / "usmo" / "curve.pdf"]
    assert paths[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert paths[1].read_bytes()[:5] == b"%PDF-"
    # nothing else is left in the folder (no temporary files), but the provenance sidecar
    assert sorted(p.name for p in (tmp_path / "usmo").iterdir()) == [
        "curve.json", "curve.pdf", "curve.png"]
    assert plots.figure_path("usmo", "curve", root=tmp_path) == tmp_path / "usmo" / "curve"


def test_saving_twice_gives_the_same_bytes(tmp_path, fig):
    # no timestamps in the files: a re-run changes a figure only when the figure changes
    first = [p.read_bytes() for p in plots.save(fig, "p", "a", root=tmp_path)]
    second = [p.read_bytes() for p in plots.save(fig, "p", "b", root=tmp_path)]
    assert first == second
    assert b"CreationDate" not in first[1]


def test_a_failed_save_leaves_the_old_file_and_no_temporary_file(tmp_path, fig, monkeypatch):
    target = tmp_path / "p" / "f.png"
    target.parent.mkdir()
    target.write_bytes(b"old figure")

    def broken(path, **kwargs):
        with open(path, "wb") as fh:
            fh.write(b"half a PNG")
        raise RuntimeError("disk full")

    monkeypatch.setattr(fig, "savefig", broken)
    with pytest.raises(RuntimeError, match="disk full"):
        plots.save(fig, "p", "f", root=tmp_path, formats=("png",))
    assert target.read_bytes() == b"old figure"
    assert [p.name for p in target.parent.iterdir()] == ["f.png"]


def _labels(axis):
    return [t.get_text() for t in axis.get_ticklabels()]


def test_log_axis_labels_the_given_ticks_as_plain_numbers(fig):
    ax = fig.axes[0]
    plots.log_axis(ax, "x", ticks=[250, 1000, 8000])
    fig.canvas.draw()
    assert ax.get_xscale() == "log"
    assert list(ax.get_xticks()) == [250, 1000, 8000]
    assert _labels(ax.xaxis) == ["250", "1k", "8k"]
    assert all(t.get_text() == "" for t in ax.xaxis.get_minorticklabels())


def test_log_axis_default_ticks_are_1_2_5_decades(fig):
    ax = fig.axes[0]
    plots.log_axis(ax, "y")
    fig.canvas.draw()
    assert ax.get_yscale() == "log" and ax.get_xscale() == "linear"
    lo, hi = ax.get_ylim()
    shown = [t for t in ax.get_yticks() if lo <= t <= hi]
    assert shown and {float(f"{t:.1e}"[0]) for t in shown} <= {1.0, 2.0, 5.0}
    labels = [lb for lb in _labels(ax.yaxis) if lb]
    assert "0.05" in labels and "200" in labels
    assert not any("e" in lb or "$" in lb for lb in labels)  # no scientific notation


@pytest.mark.parametrize("value,label", [(0.05, "0.05"), (2.0, "2"), (500.0, "500"),
                                         (2000.0, "2k"), (10000.0, "10k"), (1500.0, "1500")])
def test_compact_tick_labels(value, label):
    assert plots._compact(value) == label


def test_use_style_sets_the_repository_style():
    with matplotlib.rc_context():
        matplotlib.rcdefaults()
        assert matplotlib.rcParams["axes.spines.top"]
        plots.use_style()
        for key, value in plots.STYLE.items():
            got = matplotlib.rcParams[key]
            assert (list(got) if isinstance(got, list | tuple) else got) == \
                (list(value) if isinstance(value, tuple) else value), key
        assert not matplotlib.rcParams["axes.spines.top"]
        assert matplotlib.rcParams["svg.hashsalt"] == "weaklabel"
