"""Two-cluster baselines of Li et al. 2013 (Section 5.3, Table 11) as scikit-learn clusterers.

``fit(X)`` then ``labels_`` (``0`` / ``1``, scikit-learn's convention for clusterers; the
solvers of :mod:`weaklabel.solvers.mmc` use ``-1`` / ``+1``, and ``labels_ = (y > 0)``).
Score a clustering with :func:`weaklabel.solvers.mmc.clustering_accuracy`.

- :class:`KernelKMeans` -- KKM, and KKM-r with ``init="alignment"``;
- :class:`AlignedKMeans` -- KM-r: scikit-learn ``KMeans`` started from the centroids of the
  alignment initialisation (plain KM is ``sklearn.cluster.KMeans(2)``);
- :class:`IterSVR` -- IterSVR / IterSVR-r (Zhang, Tsang & Kwok 2007);
- :class:`CPMMC` -- Zhao, Wang & Zhang 2008;
- :class:`GMMC` -- the GMMC-style SDP relaxation (:mod:`weaklabel.reference.mmc`);
  beyond ``max_n`` rows ``fit`` raises ``ValueError``; stopped by the time limit, ``ran_``
  is False, ``labels_`` all 0 and ``fit`` warns ``ConvergenceWarning``;
- :func:`normalized_cut_labels` -- NC (Shi & Malik 2000) by scikit-learn's
  ``SpectralClustering`` on the precomputed Gaussian kernel.

Every ``fit`` builds the dense ``N x N`` kernel matrix (``8 N^2`` bytes: 3.2 GB at
N = 20 000) and raises ``MemoryError`` naming N and the bytes before allocating it when it
exceeds the memory available; a fit that puts every point in one cluster warns
:class:`~weaklabel.models.exceptions.OneClassPredictionWarning`.

Kernel widths: ``sigma`` is a number, ``"scale"`` (scikit-learn's ``gamma="scale"``) or
``"gamma"``: the rule of Li et al. 2013, Section 5.1.1, ``sigma_ratio * sqrt(gamma)``
(:func:`weaklabel.solvers.wellsvm.gamma_width`; the paper's grid of ratios is 0.25 ... 4).
``beta=None`` means ``0.03 N`` (the paper's value for balanced data; at least 1 when a
label balance has an odd ``N``).
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClusterMixin

from .._validation import (
    ConvergenceWarning,
    check_choice,
    check_int,
    check_matrix,
    check_positive,
    check_random_state,
)
from ..kernels import gram, make_kernel
from ..solvers.mmc import alignment_init, check_beta, cpmmc, iter_svr, kernel_kmeans
from ..solvers.wellsvm import gamma_width
from ._base import check_dense_memory, check_fitted_scores, scale_sigma

_ONE_CLUSTER_HINT = ("the kernel width sigma (or sigma_ratio), C or the balance beta "
                     "probably do not suit the data.")

__all__ = ["AlignedKMeans", "CPMMC", "GMMC", "IterSVR", "KernelKMeans",
           "normalized_cut_labels"]


def _sigma(X, sigma, ratio):
    if isinstance(sigma, str):
        check_choice(sigma, "sigma", {"scale", "gamma"})
        return scale_sigma(X) if sigma == "scale" else gamma_width(X, ratio)
    return check_positive(sigma, "sigma")


class _TwoClusterBase(ClusterMixin, BaseEstimator):
    """Shared input handling: ``X`` (at least 2 rows, finite), the kernel, ``beta``."""

    def _prepare(self, X):
        if "random_state" in self._get_param_names():
            check_random_state(self.random_state, "random_state")
        X = check_matrix(X, "X", min_rows=2)
        check_dense_memory(X.shape[0], 1, owner=type(self).__name__)
        kernel = self.kernel
        if kernel in ("gaussian", "rbf"):
            self.sigma_ = _sigma(X, self.sigma, getattr(self, "sigma_ratio", 1.0))
            k = make_kernel("gaussian", sigma=self.sigma_)
        else:
            self.sigma_ = None
            k = make_kernel(kernel)
        return X, k

    def _beta(self, n, labels=True):
        if self.beta is None:  # 0.03 N, at least 1 for an odd N (|1'y| is odd)
            return max(0.03 * n, float(n % 2)) if labels else 0.03 * n
        return check_beta(self.beta, n, labels=labels)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True  # densified by check_matrix
        return tags

    def _finish(self, X, y):
        self.labels_pm1_ = y
        self.labels_ = (y > 0).astype(np.int64)
        self.n_features_in_ = X.shape[1]
        # one cluster for every point: OneClassPredictionWarning at the line calling fit
        check_fitted_scores(self, np.where(self.labels_ > 0, 1.0, -1.0), _ONE_CLUSTER_HINT,
                            labels=(0, 1), what="points (one cluster)", stacklevel=4)
        return self


class KernelKMeans(_TwoClusterBase):
    """Two-cluster kernel k-means (KKM; KKM-r with ``init="alignment"``).

    Parameters
    ----------
    kernel : {"linear", "gaussian", "polynomial"}, default="gaussian"
    sigma : float, "scale" or "gamma", default="scale"
    sigma_ratio : float, default=1.0
        Ratio of ``sigma="gamma"``.
    init : {"random", "alignment"}, default="random"
        ``"random"``: two random seed points; ``"alignment"``: the best-aligned of
        ``n_draws`` random balanced labellings (Li et al. 2013, 5.3.1).
    n_init : int, default=1
        Runs; the one with the smallest within-cluster sum of squares is kept.
    n_draws : int, default=20
    max_iter : int, default=300
    random_state : int, Generator or None
    verbose : bool, default=False
        Print one line per Lloyd step and one per run (``n_init``); results are the same
        either way.

    Attributes
    ----------
    labels_ : ndarray (N,) of 0 / 1
    labels_pm1_ : ndarray (N,) of -1.0 / +1.0
    inertia_ : float
        Within-cluster sum of squares in feature space.
    n_iter_ : int
    sigma_ : float or None
    result_ : ClusteringResult
    """

    def __init__(self, kernel="gaussian", sigma="scale", *, sigma_ratio=1.0, init="random",
                 n_init=1, n_draws=20, max_iter=300, random_state=None, verbose=False):
        self.kernel = kernel
        self.sigma = sigma
        self.sigma_ratio = sigma_ratio
        self.init = init
        self.n_init = n_init
        self.n_draws = n_draws
        self.max_iter = max_iter
        self.random_state = random_state
        self.verbose = verbose

    def fit(self, X, y=None):
        X, k = self._prepare(X)
        check_choice(self.init, "init", {"random", "alignment"})
        n_init = check_int(self.n_init, "n_init", minimum=1)
        rng = np.random.default_rng(self.random_state)
        K = gram(X, X, k)
        best = None
        for run in range(1, n_init + 1):
            y0 = (alignment_init(K, self.n_draws, rng) if self.init == "alignment" else None)
            r = kernel_kmeans(K, y0, max_iter=self.max_iter, random_state=rng,
                              verbose=bool(self.verbose))
            if self.verbose:
                print(f"KernelKMeans: run {run} of {n_init}: {r.n_iter} Lloyd steps, "
                      f"within-cluster sum of squares {r.objective:.8g}")
            if best is None or r.objective < best.objective:
                best = r
        self.result_ = best
        self.inertia_ = best.objective
        self.n_iter_ = best.n_iter
        return self._finish(X, best.labels)


class AlignedKMeans(_TwoClusterBase):
    """KM-r: scikit-learn ``KMeans(2)`` (Lloyd, one run) started from the two centroids of
    the alignment initialisation (Li et al. 2013, 5.3.1) computed on ``kernel``'s Gram
    matrix (default linear, i.e. on ``X`` itself).

    Parameters
    ----------
    kernel, sigma, sigma_ratio : see the module docstring.
    n_draws : int, default=20
    max_iter : int, default=300
    random_state : int, Generator or None
    verbose : bool, default=False
        Print the initial split and pass ``verbose=1`` to scikit-learn's ``KMeans`` (one
        line per Lloyd iteration); results are the same either way.

    Attributes
    ----------
    labels_, labels_pm1_, cluster_centers_, inertia_, n_iter_, init_labels_
    """

    def __init__(self, kernel="linear", sigma="scale", *, sigma_ratio=1.0, n_draws=20,
                 max_iter=300, random_state=None, verbose=False):
        self.kernel = kernel
        self.sigma = sigma
        self.sigma_ratio = sigma_ratio
        self.n_draws = n_draws
        self.max_iter = max_iter
        self.random_state = random_state
        self.verbose = verbose

    def fit(self, X, y=None):
        from sklearn.cluster import KMeans

        X, k = self._prepare(X)
        y0 = alignment_init(gram(X, X, k), self.n_draws, self.random_state)
        centers = np.vstack([X[y0 > 0].mean(axis=0), X[y0 < 0].mean(axis=0)])
        if self.verbose:
            print(f"AlignedKMeans: alignment initialisation ({self.n_draws} draws): "
                  f"{int(np.sum(y0 > 0))} of {X.shape[0]} points in the first cluster")
        km = KMeans(2, init=centers, n_init=1, max_iter=check_int(self.max_iter, "max_iter",
                                                                   minimum=1),
                    algorithm="lloyd", verbose=1 if self.verbose else 0).fit(X)
        self.init_labels_ = y0
        self.cluster_centers_ = km.cluster_centers_
        self.inertia_ = float(km.inertia_)
        self.n_iter_ = int(km.n_iter_)
        return self._finish(X, np.where(km.labels_ == 0, 1.0, -1.0))


class IterSVR(_TwoClusterBase):
    """IterSVR (Zhang, Tsang & Kwok 2007); IterSVR-r with ``init="alignment"``.

    See :func:`weaklabel.solvers.mmc.iter_svr` (SVR by this package's SMO core, Laplacian
    loss for ``epsilon=0``, balance ``|1'y| <= beta`` by sorting).

    Parameters
    ----------
    kernel, sigma, sigma_ratio : see the module docstring.
    C : float, default=1.0
    beta : float or None, default=None
        In ``[0, N]``; ``None``: ``0.03 N``.
    epsilon : float, default=0.0
    init : {"random", "alignment"}, default="random"
    n_draws : int, default=20
    max_iter : int, default=50
    random_state : int, Generator or None
    verbose : bool, default=False
        Print one line per regress/re-label round; results are the same either way.

    Attributes
    ----------
    labels_, labels_pm1_, decision_ (``f`` on the training points), n_iter_, converged_,
    sigma_, result_
    """

    def __init__(self, kernel="gaussian", sigma="scale", C=1.0, *, sigma_ratio=1.0,
                 beta=None, epsilon=0.0, init="random", n_draws=20, max_iter=50,
                 random_state=None, verbose=False):
        self.kernel = kernel
        self.sigma = sigma
        self.C = C
        self.sigma_ratio = sigma_ratio
        self.beta = beta
        self.epsilon = epsilon
        self.init = init
        self.n_draws = n_draws
        self.max_iter = max_iter
        self.random_state = random_state
        self.verbose = verbose

    def fit(self, X, y=None):
        X, k = self._prepare(X)
        check_choice(self.init, "init", {"random", "alignment"})
        beta = self._beta(X.shape[0])
        y0 = (alignment_init(gram(X, X, k), self.n_draws, self.random_state)
              if self.init == "alignment" else None)
        r = iter_svr(X, self.C, k, beta=beta, epsilon=self.epsilon, y0=y0,
                     max_iter=self.max_iter, random_state=self.random_state,
                     verbose=bool(self.verbose))
        self.result_ = r
        self.decision_ = r.decision
        self.n_iter_ = r.n_iter
        self.converged_ = r.converged
        return self._finish(X, r.labels)


class CPMMC(_TwoClusterBase):
    """CPMMC (Zhao, Wang & Zhang 2008): see :func:`weaklabel.solvers.mmc.cpmmc`.

    Parameters
    ----------
    kernel, sigma, sigma_ratio : see the module docstring.
    C : float, default=1.0
    beta : float or None, default=None
        Bound ``l`` of ``|sum_i f(x_i)| <= l``, in ``[0, N]``; ``None``: ``0.03 N``.
    n_components : int, default=200
        Dimension of the explicit feature map of a non-linear kernel.
    cp_tol, tol, max_iter, max_planes : see the solver.
    random_state : int, Generator or None
    verbose : bool, default=False
        Print one line per CCCP round; results are the same either way.

    Attributes
    ----------
    labels_, labels_pm1_, decision_, objective_path_, n_iter_, converged_, sigma_, result_
    """

    def __init__(self, kernel="linear", sigma="scale", C=1.0, *, sigma_ratio=1.0, beta=None,
                 n_components=200, cp_tol=1e-2, tol=1e-3, max_iter=30, max_planes=100,
                 random_state=None, verbose=False):
        self.kernel = kernel
        self.sigma = sigma
        self.C = C
        self.sigma_ratio = sigma_ratio
        self.beta = beta
        self.n_components = n_components
        self.cp_tol = cp_tol
        self.tol = tol
        self.max_iter = max_iter
        self.max_planes = max_planes
        self.random_state = random_state
        self.verbose = verbose

    def fit(self, X, y=None):
        X, k = self._prepare(X)
        r = cpmmc(X, self.C, k, beta=self._beta(X.shape[0], labels=False),
                  n_components=self.n_components,
                  cp_tol=self.cp_tol, tol=self.tol, max_iter=self.max_iter,
                  max_planes=self.max_planes, random_state=self.random_state,
                  verbose=bool(self.verbose))
        self.result_ = r
        self.decision_ = r.decision
        self.objective_path_ = r.objective_path
        self.n_iter_ = r.n_iter
        self.converged_ = r.converged
        return self._finish(X, r.labels)


class GMMC(_TwoClusterBase):
    """The GMMC-style SDP relaxation (:func:`weaklabel.reference.mmc.gmmc_sdp`).

    Parameters
    ----------
    kernel, sigma, sigma_ratio : see the module docstring.
    C : float, default=1.0
    beta : float or None, default=None
        Balance of the rounding, in ``[0, N]``; ``None``: ``0.03 N``.
    ridge : float, default=1e-3
    max_n : int, default=100
        Larger data sets raise ``ValueError`` naming ``max_n`` and N. The SDP has an
        ``N x N`` matrix variable and its cost grows steeply: with the defaults, two
        Gaussian blobs took 4 s at N = 60, 7 s at N = 100 and 84 s at N = 200 (one core),
        so the default keeps a fit within about 10 s; raise it to attempt larger N.
    time_limit : float or None, default=600
        SCS's own time limit in seconds; cvxpy's compilation of the SDP (most of the
        time at N = 200) is not bounded by it.
    tol : float, default=1e-5
        SCS absolute and relative tolerance.
    verbose : bool, default=False
        Passed to SCS (through cvxpy): its iteration log, written to the process's standard
        output, and one summary line; results are the same either way.

    Attributes
    ----------
    ran_ : bool
        False when SCS stopped at ``time_limit`` (with a ``ConvergenceWarning``).
    labels_, labels_pm1_ : the rounded labelling (all 0 / -1 when not run)
    relaxation_value_ : float
    sigma_, result_
    """

    def __init__(self, kernel="gaussian", sigma="scale", C=1.0, *, sigma_ratio=1.0,
                 beta=None, ridge=1e-3, max_n=100, time_limit=600.0, tol=1e-5,
                 verbose=False):
        self.kernel = kernel
        self.sigma = sigma
        self.C = C
        self.sigma_ratio = sigma_ratio
        self.beta = beta
        self.ridge = ridge
        self.max_n = max_n
        self.time_limit = time_limit
        self.tol = tol
        self.verbose = verbose

    def fit(self, X, y=None):
        max_n = check_int(self.max_n, "max_n", minimum=2)
        tol = check_positive(self.tol, "tol")
        n = check_matrix(X, "X", min_rows=2).shape[0]
        if n > max_n:
            raise ValueError(
                f"GMMC: X has n = {n} rows, more than max_n={max_n}: the SDP relaxation has "
                "an n x n matrix variable and its cost grows steeply with n (84 s at n = 200 "
                "on one core). Raise max_n to attempt it, or subsample X.")
        from ..reference.mmc import gmmc_sdp  # cvxpy: imported once the input is valid

        X, k = self._prepare(X)
        r = gmmc_sdp(gram(X, X, k), self.C, beta=self._beta(n), ridge=self.ridge,
                     max_n=max_n, time_limit=self.time_limit, eps=tol,
                     verbose=bool(self.verbose))
        if self.verbose:
            print(f"GMMC: SDP with N={n} solved by SCS in {r.seconds:.3g} s, status {r.status}")
        self.result_ = r
        self.ran_ = r.ran
        self.relaxation_value_ = r.relaxation_value
        if not r.ran:
            warnings.warn(
                f"GMMC did not run to the end: {r.status}; labels_ is all 0 and ran_=False "
                "(raise time_limit or loosen tol).", ConvergenceWarning, stacklevel=2)
            self.labels_pm1_ = -np.ones(n)
            self.labels_ = np.zeros(n, dtype=np.int64)
            self.n_features_in_ = X.shape[1]
            return self
        return self._finish(X, r.labels)


def normalized_cut_labels(X, sigma="scale", *, sigma_ratio=1.0, random_state=None):
    """NC (Shi & Malik 2000): scikit-learn ``SpectralClustering(2, affinity="precomputed")``
    on the Gaussian kernel of width ``sigma`` (a number, ``"scale"`` or ``"gamma"``, module
    docstring); returns labels ``+1`` / ``-1``."""
    from sklearn.cluster import SpectralClustering

    X = check_matrix(X, "X", min_rows=2)
    s = _sigma(X, sigma, sigma_ratio)
    A = gram(X, X, "gaussian", sigma=s)
    lab = SpectralClustering(2, affinity="precomputed",
                             random_state=random_state).fit_predict(A)
    return np.where(lab == 0, 1.0, -1.0)
