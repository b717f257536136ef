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


# --------------------------------------------------------------------------- published values
import numpy as np  # noqa: E402


@pytest.fixture
def ax():
    f, a = plt.subplots(figsize=(3, 2))
    yield a
    plt.close(f)


def test_overlay_published_draws_and_tags_finite_values(ax):
    h = plots.overlay_published(ax, [1, 2, 3], [0.5, np.nan, 0.7], label="paper (Table 4)")
    assert h is not None and h.get_gid() == plots.PUBLISHED_GID
    assert list(h.get_xdata()) == [1.0, 3.0]  # the missing value is skipped
    assert plots.published_artists(ax.figure) == [h]


def test_overlay_published_without_a_value_draws_nothing(ax):
    assert plots.overlay_published(ax, [1, 2], [np.nan, np.nan]) is None
    assert plots.published_artists(ax.figure) == []


def test_a_figure_without_overlay_has_no_published_artist(ax):
    ax.plot([1, 2], [3, 4], label="paper rule")  # a label naming the paper is not an overlay
    assert plots.published_artists(ax.figure) == []


def test_overlay_bound_range_and_note_are_tagged(ax):
    plots.overlay_bound(ax, 40, label="paper: < 40 passes")
    plots.overlay_range(ax, -0.1, 0.0, label="paper: axis -0.1 to 0")
    plots.overlay_note(ax, "paper: about 10x faster")
    assert len(plots.published_artists(ax.figure)) == 3


@pytest.mark.parametrize("call", [
    lambda a: plots.overlay_published(a, [1], [2], label="ours"),
    lambda a: plots.overlay_bound(a, 1.0, label="ours"),
    lambda a: plots.overlay_note(a, "ours"),
    lambda a: plots.overlay_range(a, 0, 1, label="ours"),
])
def test_an_overlay_must_name_the_paper(ax, call):
    with pytest.raises(ValueError, match="paper"):
        call(ax)


def test_overlay_arguments_are_checked(ax):
    with pytest.raises(ValueError, match="axis"):
        plots.overlay_bound(ax, 1.0, axis="z")
    with pytest.raises(ValueError, match="value"):
        plots.overlay_bound(ax, np.nan)
    with pytest.raises(ValueError, match="lo and hi"):
        plots.overlay_range(ax, 1.0, 0.0)
    with pytest.raises(ValueError, match="same length"):
        plots.overlay_published(ax, [1, 2], [1])


# --------------------------------------------------------------------------- degenerate runs
@pytest.mark.parametrize(("evidence", "expected"), [
    ([True, False, None], [True, False, False]),        # flags (one_class)
    ([0, 2, np.nan], [False, True, False]),             # counts (warnings_one_class)
    ([0.0, 0.333, 1.0], [False, True, True]),           # shares (one_class_share)
])
def test_degenerate_mask_reads_flags_counts_and_shares(evidence, expected):
    assert plots.degenerate_mask(evidence).tolist() == expected


def test_degenerate_mask_rejects_text_and_negative_values():
    with pytest.raises(ValueError, match="evidence"):
        plots.degenerate_mask(["yes"])
    with pytest.raises(ValueError, match="evidence"):
        plots.degenerate_mask([-1])


def test_mark_one_class_fires_on_recorded_one_class_points(ax):
    n = plots.mark_one_class(ax, [1, 2, 3], [0.7, 0.7, 0.9], [1.0, 0.0, 0.5],
                             reason="share > 0")
    assert n == 2
    labels = [c.get_label() for c in ax.collections]
    assert labels == [plots.ONE_CLASS_LABEL]
    assert plots.marks(ax.figure) == {plots.ONE_CLASS_LABEL: {"count": 2,
                                                              "reasons": ["share > 0"]}}
    cap = plots.marks_caption(ax.figure)
    assert plots.ONE_CLASS_LABEL in cap and "2 points" in cap and "share > 0" in cap
    # a second call adds to the count but not a second legend entry
    plots.mark_one_class(ax, [4], [0.5], [True])
    assert plots.legend_handles(ax)[1].count(plots.ONE_CLASS_LABEL) == 1
    assert plots.marks(ax.figure)[plots.ONE_CLASS_LABEL]["count"] == 3


def test_mark_one_class_does_not_fire_without_evidence(ax):
    assert plots.mark_one_class(ax, [1, 2], [0.7, 0.9], [0.0, np.nan]) == 0
    assert len(ax.collections) == 0 and plots.marks(ax.figure) == {}
    assert plots.marks_caption(ax.figure) == ""
    with pytest.raises(ValueError, match="same length"):
        plots.mark_one_class(ax, [1, 2], [0.7, 0.9], [True])


def test_identical_curves_fires_only_on_equal_curves():
    a = [[0.70, 0.75, 0.80], [0.71, 0.74, np.nan]]
    assert plots.identical_curves(a, [list(r) for r in a])
    assert not plots.identical_curves(a, [[0.70, 0.75, 0.80], [0.71, 0.74, 0.79]])
    assert not plots.identical_curves([0.7, 0.8], [0.7, 0.8000001])
    assert not plots.identical_curves([0.7, 0.8], [0.7, 0.8, 0.9])
    assert not plots.identical_curves([], [])


def test_mark_identical_adds_a_legend_entry_and_a_caption(ax):
    ax.plot([1, 2], [3, 4], label="run a")
    plots.mark_identical(ax, reason="the correction never acted")
    h, lab = plots.legend_handles(ax)
    assert lab == ["run a", plots.IDENTICAL_LABEL]
    assert "1 panel" in plots.marks_caption(ax.figure)
    assert "never acted" in plots.marks_caption(ax.figure)


def test_figure_caption_names_overlays_and_marks(ax):
    assert plots.figure_caption(ax.figure) == ""
    plots.overlay_bound(ax, 25, axis="x", label="paper: fewer than 25 iterations")
    plots.mark_one_class(ax, [1], [2], [True], reason="flag")
    cap = plots.figure_caption(ax.figure)
    assert "paper: fewer than 25 iterations" in cap and plots.ONE_CLASS_LABEL in cap
