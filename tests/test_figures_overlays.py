"""The stages' figure functions: the paper's numbers are overlaid where the paper gives
them (and only then), degenerate runs are marked where the runs record them (and only
then), and captions say what the data show. Tiny frames, Agg backend."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from weaklabel import plots  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _n_published(fig):
    return len(plots.published_artists(fig))


# --------------------------------------------------------------------------- tsgsu
def _tsgsu_raw(one_class_cuu: bool):
    rows = []
    for m, acc, oc in (("TSGSU", 0.80, False), ("CUU", 0.70, one_class_cuu),
                       ("SUSL(Linear)", 0.75, False)):
        curve = m != "SUSL(Linear)"
        rows.append({"dataset": "Combined", "trial": 0, "method": m, "status": "ok",
                     "seconds": 2.0, "accuracy": acc, "one_class": oc, "trivial": 0.70,
                     "curve_time": [0.1, 1.0, 2.0] if curve else None,
                     "curve_acc": [0.6, 0.7, acc] if curve else None})
    return pd.DataFrame(rows)


@pytest.mark.parametrize(("one_class", "marked"), [(True, 1), (False, 0)])
def test_tsgsu_curves_mark_recorded_one_class_fits(one_class, marked):
    from weaklabel.experiments import tsgsu as E

    fig = E.plot_curves(_tsgsu_raw(one_class), ["Combined"], "t")
    got = plots.marks(fig).get(plots.ONE_CLASS_LABEL, {"count": 0})["count"]
    assert got == marked
    assert _n_published(fig) == 0  # the paper gives no numbers
    assert "no published numbers" in fig._suptitle.get_text()


def _ablation(same: bool, negative_iters: int = 0):
    rows = []
    for corr in ("abs", "none"):
        for trial in (0, 1):
            acc = [0.70, 0.75, 0.80]
            if corr == "none" and not same and trial == 1:
                acc = [0.70, 0.74, 0.80]
            rows.append({"dataset": "Covtype", "trial": trial, "correction": corr,
                         "curve_iter": [1, 2, 3], "curve_acc": acc,
                         "negative_risk_iters": negative_iters})
    return pd.DataFrame(rows)


def test_tsgsu_ablation_marks_identical_curves_with_the_recorded_reason():
    from weaklabel.experiments import tsgsu as E

    fig = E.plot_ablation(_ablation(same=True), {"n_unlabelled": 100, "ablation_trials": 2})
    m = plots.marks(fig)
    assert m[plots.IDENTICAL_LABEL]["count"] == 1
    assert "never acted" in m[plots.IDENTICAL_LABEL]["reasons"][0]
    assert plots.IDENTICAL_LABEL in plots.legend_handles(fig.axes[0])[1]


def test_tsgsu_ablation_does_not_mark_curves_that_differ_in_one_trial():
    from weaklabel.experiments import tsgsu as E

    fig = E.plot_ablation(_ablation(same=False, negative_iters=2),
                          {"n_unlabelled": 100, "ablation_trials": 2})
    assert plots.marks(fig) == {}


# --------------------------------------------------------------------------- usmo
def test_usmo_pass_trace_caption_reads_the_peaks_from_the_trace():
    from weaklabel.experiments import usmo as ex

    tr = pd.DataFrame({"pass": [1, 2, 3, 4, 5], "kind": [1, 0, 1, 0, 1],
                       "seconds": [2.5, 0.044, 0.046, 2.5e-5, 6e-5],
                       "dual_objective": [-12.4448, -12.4464, -12.4468, -12.4468, -12.4468],
                       "n_changed": [4161, 483, 249, 0, 0]})
    cap = ex.pass_trace_caption(tr)
    assert "are exactly the whole-set passes" in cap  # 1, 3, 5 are the local peaks
    assert "does not change at pass(es) 4, 5" in cap
    tr2 = tr.assign(seconds=[2.5, 0.05, 0.01, 0.02, 0.001])  # peaks 1 and 4, 4 non-bound
    cap2 = ex.pass_trace_caption(tr2)
    assert "are exactly" not in cap2 and "here that holds for 1 of 3" in cap2
    fig = ex.plot_pass_trace(tr, "t")
    assert fig.axes[0].get_yscale() == "log" and _n_published(fig) == 0


def _scaling(rate):
    return pd.DataFrame({"dataset": "A", "kernel": "gaussian", "method": "USMO",
                         "sigma_rule": "1 (paper)", "n_unlabelled": [250, 500],
                         "test_f1_positive": [0.0, 40.0], "test_positive_rate": rate,
                         "seconds": [0.1, 0.2]})


@pytest.mark.parametrize(("rate", "marked"), [([0.0, 0.3], 1), ([0.2, 0.3], 0)])
def test_usmo_scaling_marks_constant_fits(rate, marked):
    from weaklabel.experiments import usmo as ex

    fig = ex.plot_scaling(_scaling(rate), "test_f1_positive", "F1", logy=False, percent=True)
    got = plots.marks(fig).get(plots.ONE_CLASS_LABEL, {"count": 0})["count"]
    assert got == marked
    # the time figure never marks (the evidence is about test predictions)
    fig2 = ex.plot_scaling(_scaling([0.0, 1.0]), "seconds", "s")
    assert plots.marks(fig2) == {}


def test_usmo_passes_figure_overlays_the_papers_bound():
    from weaklabel.experiments import usmo as ex

    df = pd.DataFrame({"dataset": "A", "kernel": "linear", "n_unlabelled": [250, 500],
                       "passes": [5, 7], "pair_updates": [300, 600]})
    fig = ex.plot_passes_vs_n(df)
    (h,) = plots.published_artists(fig)
    assert h.get_ydata()[0] == ex.CLAIM_RULES["max_passes"]


# --------------------------------------------------------------------------- mcls
def _t4(one_class_runs):
    return pd.DataFrame({"dataset": "banana", "r_offset": [-0.05, 0.0, 0.05],
                         "mean": [80.0, 84.0, 81.0], "std": [1.0, 1.0, 1.0], "n": 10,
                         "one_class_runs": one_class_runs})


def test_mcls_table4_overlays_the_published_row_and_marks_one_class_cells():
    from weaklabel.experiments import mcls as E

    pub = pd.DataFrame({"artifact": "Table 4", "row": "banana",
                        "column": ["r-0.05", "r", "r+0.05"], "value": [82.5, 84.6, 81.8]})
    fig = E.plot_table4(_t4([0, 0, 2]), pub)
    (h,) = plots.published_artists(fig)
    assert list(h.get_ydata()) == [82.5, 84.6, 81.8]
    assert plots.marks(fig)[plots.ONE_CLASS_LABEL]["count"] == 1
    fig = E.plot_table4(_t4([0, 0, 0]), pub.iloc[:0])  # nothing published: no overlay
    assert _n_published(fig) == 0 and plots.marks(fig) == {}


# --------------------------------------------------------------------------- wellsvm
def _f2(sign):
    return pd.DataFrame({"dataset": "Haberman", "variant": "reference",
                         "iteration": [0, 1, 2], "objective": sign * np.array([0.02, 0.025,
                                                                               0.027])})


def test_wellsvm_fig2_overlays_the_iteration_bound_and_the_axis_of_the_paper():
    from weaklabel.experiments import wellsvm as E

    fig = E.plot_fig2(_f2(-1.0))  # negative objectives: the paper's axis is drawn
    assert _n_published(fig) == 2
    assert "fewer than 25 iterations" in plots.figure_caption(fig)
    fig = E.plot_fig2(_f2(+1.0))  # positive: only the bound; the axis is off this scale
    assert _n_published(fig) == 1


# --------------------------------------------------------------------------- wellsvm_linear
def _f34(fractions, share):
    n = len(fractions)
    s = pd.DataFrame({"dataset": "real-sim", "fraction": fractions,
                      "n_train": [200 * (i + 1) for i in range(n)],
                      "svm_accuracy": 0.7, "svmlin_accuracy": 0.8, "wellsvm_accuracy": 0.69,
                      "svm_one_class_share": 0.0, "svmlin_one_class_share": 0.0,
                      "wellsvm_one_class_share": share, "test_majority": 0.69})
    t = pd.DataFrame([{"dataset": "real-sim", "fraction": f, "method": m,
                       "n_train": n_, "seconds": 0.1}
                      for f, n_ in zip(s.fraction, s.n_train)
                      for m in ("SVM", "SVMlin", "WellSVM")])
    return s, t


def test_wellsvm_linear_fig34_overlays_table5_at_the_75_percent_point():
    from weaklabel.experiments import wellsvm_linear as E

    wide = pd.DataFrame({"SVM": [0.81], "WellSVM": [0.84]}, index=["real-sim, 50"])
    s, t = _f34([0.35, 0.75], [0.0, 1.0])
    fig = E.plot_fig34(s, t, "real-sim", published=wide)
    ys = sorted(float(h.get_ydata()[0]) for h in plots.published_artists(fig))
    assert ys == [0.81, 0.84]
    assert plots.marks(fig)[plots.ONE_CLASS_LABEL]["count"] == 1
    s, t = _f34([0.05, 0.35], [0.0, 0.0])  # no 75 % point, no one-class run
    fig = E.plot_fig34(s, t, "real-sim", published=wide)
    assert _n_published(fig) == 0 and plots.marks(fig) == {}


def test_wellsvm_linear_fig34_draws_the_rcv1_time_bound_only_for_rcv1():
    from weaklabel.experiments import wellsvm_linear as E

    s, t = _f34([0.05], [0.0])
    empty = pd.DataFrame(columns=["SVM", "WellSVM"])
    assert _n_published(E.plot_fig34(s, t, "real-sim", published=empty)) == 0
    s2, t2 = s.assign(dataset="rcv1"), t.assign(dataset="rcv1")
    (h,) = plots.published_artists(E.plot_fig34(s2, t2, "rcv1", published=empty))
    assert (h.get_xdata()[0], h.get_ydata()[0]) == E.FIG34_PUBLISHED["time_bound"]["rcv1"]


# --------------------------------------------------------------------------- clustering, MIL
def test_wellsvm_clustering_fig7_states_the_papers_ratio_and_keeps_the_legend_outside():
    from weaklabel.experiments import wellsvm_clustering as E

    times = pd.DataFrame({"KM": [0.01, 0.02], "GMMC": [10.0, np.nan],
                          "WellSVM": [1.0, 2.0]}, index=["Echocardiogram", "House"])
    fig = E.plot_fig7(times)
    (note,) = plots.published_artists(fig)
    assert "10× faster than GMMC" in note.get_text() and "= 10×" in note.get_text()
    ax = fig.axes[0]
    assert all(line.get_linestyle() == "None" for line in ax.lines
               if not line.get_label().startswith("_"))
    leg = ax.get_legend()
    fig.canvas.draw()
    box = leg.get_window_extent()
    assert box.x0 >= ax.get_window_extent().x1  # the legend is right of the axes


def test_wellsvm_mil_fig6_puts_the_legend_in_its_own_slot():
    from weaklabel.experiments import wellsvm_mil as E

    curves = pd.DataFrame([{"concept": c, "method": m, "k": k, "successes": min(k, 3)}
                           for c in E.ROI_CONCEPTS for m in ("WellSVM", "DD")
                           for k in (5, 10)])
    fig = E.plot_mil_fig6(curves)
    data_axes = [a for a in fig.axes if a.axison]
    assert len(data_axes) == len(E.ROI_CONCEPTS)
    assert all(a.get_legend() is None for a in data_axes)
    assert all(a.get_xlabel() for a in data_axes[-3:])
    assert "bags" in data_axes[0].get_ylabel() and _n_published(fig) == 0
