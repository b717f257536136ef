"""A declared substitute for the COREL region-of-interest (ROI) images of Li, Tsang, Kwok and
Zhou (JMLR 2013, Sec. 5.2, Table 9), which are not available offline.

:func:`make_roi_bags` draws seeded synthetic "images": a grid of patches, each patch one
instance, with instance-level truth (which patches are ROIs). Background patches are
textures and COIL-20 objects that are never a concept's target; an image of concept ``c``
holds ``k >= 1`` patches showing the COIL-20 object that is concept ``c``'s target, in a
connected blob, with the number of ROIs per image varying by concept as in Table 9 (scaled to
the grid). :func:`roi_splits` is the paper's protocol: 10 images per concept for training,
the rest for testing, 10 random splits. :data:`ROI_RECIPE` is the recipe as text.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field

import numpy as np

from weaklabel._validation import check_int
from weaklabel.data.splits import check_random_state

__all__ = ["ROI_RECIPE", "ROIImageBags", "TABLE9_ROIS_PER_IMAGE", "make_roi_bags",
           "roi_patch_features", "roi_splits"]

#: Table 9 of Li et al. (2013): average number of ROIs per image of each COREL concept.
TABLE9_ROIS_PER_IMAGE = {"castle": 19.39, "firework": 27.23, "mountain": 24.93,
                         "sunset": 2.32, "waterfall": 13.89}
#: Regions per COREL image assumed when scaling Table 9 to our grid: 160x160 images cut in
#: 20x20 SBN regions (Li et al. 2013, Sec. 5.2) give an 8 x 8 grid.
_PAPER_REGIONS = 64
#: COIL-20 objects (1-based codes of ``load("cai-coil20").y``) used as concept targets, in
#: concept order; the others (up to 20) are background clutter.
_TARGET_OBJECTS = (1, 3, 4, 5, 6, 9, 11, 13, 16, 19)

ROI_RECIPE = """\
ROI substitute data (declared; the 500 COREL images of Li et al. 2013, Sec. 5.2 are not
available offline). Generator: weaklabel.data.mil.make_roi_bags(n_per_concept=100,
concepts=5, grid=5, patch=16, clutter=0.5, noise=0.05, pose_window=25,
random_state=seed).
- Concepts: concept c (c = 0..4, named after Table 9: castle, firework, mountain, sunset,
  waterfall) has a target, the COIL-20 object number (1, 3, 4, 5, 6)[c] of
  load("cai-coil20") (32x32 grey images, 72 poses each, read column-major).
- Image: a grid x grid array (5 x 5 = 25 cells) of patch x patch (16 x 16) pixel patches,
  i.e. an 80 x 80 grey image; each cell is one instance (row-major order).
- ROIs: an image of concept c holds k >= 1 target patches placed as a 4-connected random blob
  (grown from a random cell by adding random neighbours). k = 1 + Binomial(cells - 1, q_c)
  with q_c chosen so that E[k] = max(1, cells * r_c / 64), r_c the Table 9 average of the
  concept and 64 the 8 x 8 regions of a 160 x 160 COREL image (so, on 25 cells, about
  7.6 / 10.6 / 9.7 / 1 / 5.4 ROIs for castle / firework / mountain / sunset / waterfall).
  Each target patch is one of the object's 25 poses within +-60 degrees of its first COIL-20
  image (file order taken as pose order, 5 degrees apart), downsampled 2x (block means), times
  a gain U(0.6, 1.1), plus N(0, 0.05^2) pixel noise; pixels clipped to [0, 1].
- Background (every other cell): with probability 1/2 any pose of a COIL-20 object that
  is never a target (objects not in (1, 3, 4, 5, 6, 9, 11, 13, 16, 19)), same gain and noise;
  otherwise a texture: Gaussian noise smoothed by a 3 x 3 box filter k times (k in 0..3),
  scaled to a random mean U(0, 0.6) and contrast U(0.02, 0.3). Images of one concept never
  show another concept's target (negative bags of a one-vs-rest problem hold no ROI).
- Instance features (21-dim, SBN-like after Maron and Ratan 1998): the 4 x 4 block means of
  the patch (16), the patch's standard deviation (1) and the differences between the mean of
  each of its 4 grid neighbours (up, down, left, right) and its own mean (4; 0 at the border).
- Protocol (Li et al. 2013): one-vs-rest per concept; per split 10 images of each concept for
  training (50 bags: 10 positive, 40 negative), the other 450 for testing; 10 splits
  (roi_splits).
"""


@dataclass(eq=False)
class ROIImageBags:
    """Synthetic ROI images as multi-instance bags (see :func:`make_roi_bags`).

    Attributes
    ----------
    bags : list of ndarray (m, d)
        Instance features of each image (``m = grid**2`` patches, row-major).
    concept : ndarray of int64 (n_images,)
        Concept of each image (0 .. concepts - 1).
    roi_masks : list of ndarray of bool (m,)
        Instance-level truth: True at the patches showing the image's concept target.
    images : ndarray of float32 (n_images, grid * patch, grid * patch)
        The pixels, for drawing (Fig. 5 analogue); patch ``j`` of an image is the cell
        ``divmod(j, grid)``.
    grid, patch : int
        Cells per side and pixels per cell side.
    concept_names : list of str
        Names borrowed from Table 9 (cycled with a suffix beyond five concepts).
    target_objects : tuple of int
        COIL-20 object code of each concept's target.
    expected_rois : ndarray (concepts,)
        Expected ROIs per image of each concept (Table 9 scaled to the grid).
    recipe : str
        The declared recipe (:data:`ROI_RECIPE`).
    """

    bags: list
    concept: np.ndarray
    roi_masks: list
    images: np.ndarray
    grid: int
    patch: int
    concept_names: list
    target_objects: tuple
    expected_rois: np.ndarray
    recipe: str = ROI_RECIPE
    meta: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.bags)

    def bag_labels(self, concept: int) -> np.ndarray:
        """One-vs-rest bag labels (1 for images of ``concept``, else 0)."""
        return (self.concept == concept).astype(np.int64)

    def rois_per_image(self) -> np.ndarray:
        """Number of ROI patches of every image."""
        return np.array([int(m.sum()) for m in self.roi_masks])

    def cell_of(self, instance: int) -> tuple[int, int]:
        """Grid cell ``(row, column)`` of instance ``instance`` of any image."""
        return divmod(int(instance), self.grid)


def _downsample(img, factor):
    h, w = img.shape
    return img.reshape(h // factor, factor, w // factor, factor).mean(axis=(1, 3))


def _box3(a):
    p = np.pad(a, 1, mode="reflect")
    return sum(p[i:i + a.shape[0], j:j + a.shape[1]] for i in range(3) for j in range(3)) / 9.0


def _blob(rng, grid, k):
    """``k`` cells of a ``grid x grid`` array forming a 4-connected random blob."""
    start = int(rng.integers(grid * grid))
    cells = {start}
    frontier = set()

    def add_nb(c):
        r, q = divmod(c, grid)
        for dr, dq in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, qq = r + dr, q + dq
            if 0 <= rr < grid and 0 <= qq < grid and rr * grid + qq not in cells:
                frontier.add(rr * grid + qq)

    add_nb(start)
    while len(cells) < k:
        nxt = sorted(frontier)[int(rng.integers(len(frontier)))]
        frontier.discard(nxt)
        cells.add(nxt)
        add_nb(nxt)
    return np.array(sorted(cells), dtype=np.int64)


def roi_patch_features(image, grid: int, patch: int) -> np.ndarray:
    """The 21-dim SBN-like descriptor of every patch of ``image`` (row-major).

    4 x 4 block means (16), the patch standard deviation (1), and each 4-neighbour's mean
    minus the patch mean (up, down, left, right; 0 at the border) (4), after the SBN bag
    generator of Maron and Ratan (1998), which uses a blob's mean and its differences to
    four neighbours.
    """
    image = np.asarray(image, dtype=np.float64)
    P = image.reshape(grid, patch, grid, patch).transpose(0, 2, 1, 3)  # (g, g, p, p)
    b = patch // 4
    blocks = P[:, :, :b * 4, :b * 4].reshape(grid, grid, 4, b, 4, b).mean(axis=(3, 5))
    mean = P.mean(axis=(2, 3))
    std = P.std(axis=(2, 3))
    nb = np.zeros((grid, grid, 4))
    nb[1:, :, 0] = mean[:-1, :] - mean[1:, :]
    nb[:-1, :, 1] = mean[1:, :] - mean[:-1, :]
    nb[:, 1:, 2] = mean[:, :-1] - mean[:, 1:]
    nb[:, :-1, 3] = mean[:, 1:] - mean[:, :-1]
    F = np.concatenate([blocks.reshape(grid, grid, 16), std[:, :, None], nb], axis=2)
    return F.reshape(grid * grid, 21)


def _coil_objects(patch):
    from weaklabel.data.loaders import load

    ds = load("cai-coil20")
    side = int(round(np.sqrt(ds.X.shape[1])))
    imgs = ds.X.reshape(-1, side, side).transpose(0, 2, 1)  # MATLAB column-major
    factor = side // patch
    if factor < 1 or side % patch:
        raise ValueError(f"patch must divide the {side}-pixel COIL-20 images, got {patch}.")
    if factor > 1:
        imgs = np.stack([_downsample(im, factor) for im in imgs])
    return imgs, np.asarray(ds.y, dtype=np.int64)


def make_roi_bags(n_per_concept: int = 100, concepts: int = 5, *, random_state=None,
                  grid: int = 5, patch: int = 16, clutter: float = 0.5,
                  noise: float = 0.05, pose_window: int = 25) -> ROIImageBags:
    """Seeded synthetic ROI images: the declared substitute for the COREL set of Table 9.

    The recipe is :data:`ROI_RECIPE` (and ``.recipe`` of the result). The COIL-20 images are
    read with ``weaklabel.data.load("cai-coil20")``.

    Parameters
    ----------
    n_per_concept : int, default=100
        Images per concept (Li et al. 2013: 100).
    concepts : int, default=5
        Number of concepts, 1 .. 10; ROI counts cycle through Table 9's five.
    random_state : int, Generator or None
        Seed; the result is a deterministic function of it (and of the other arguments).
    grid : int, default=5
        Cells per image side (instances per bag = ``grid**2``), 3 .. 8.
    patch : int, default=16
        Pixels per cell side: 8, 16 or 32 (COIL-20 images are 32 x 32).
    clutter : float, default=0.5
        Probability that a background cell shows a non-target COIL-20 object (else a texture).
    noise : float, default=0.05
        Standard deviation of the pixel noise.
    pose_window : int, default=25
        Target patches show one of the ``pose_window`` COIL-20 poses (5 degrees apart, file
        order) centred on the object's first image (25: +-60 degrees); 72 = any pose.

    Returns
    -------
    ROIImageBags
    """
    n_per = check_int(n_per_concept, "n_per_concept", minimum=1)
    n_c = check_int(concepts, "concepts", minimum=1)
    if n_c > len(_TARGET_OBJECTS):
        raise ValueError(f"concepts must be <= {len(_TARGET_OBJECTS)}, got {n_c}.")
    grid = check_int(grid, "grid", minimum=3)
    if grid > 8:
        raise ValueError(f"grid must be <= 8, got {grid}.")
    patch = check_int(patch, "patch", minimum=1)
    if patch not in (8, 16, 32):
        raise ValueError(f"patch must be 8, 16 or 32, got {patch}.")
    for name, v in (("clutter", clutter), ("noise", noise)):
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or not 0 <= v <= 1:
            raise ValueError(f"{name} must lie in [0, 1], got {v!r}.")
    pose_window = check_int(pose_window, "pose_window", minimum=1)
    if pose_window > 72:
        raise ValueError(f"pose_window must be <= 72 (COIL-20 poses), got {pose_window}.")
    rng = check_random_state(random_state)
    objs, codes = _coil_objects(patch)
    targets = _TARGET_OBJECTS[:n_c]
    window = np.arange(pose_window) - pose_window // 2
    target_rows = []
    for t in targets:
        rows = np.flatnonzero(codes == t)
        target_rows.append(rows[window % rows.shape[0]])
    clutter_rows = np.flatnonzero(~np.isin(codes, _TARGET_OBJECTS))
    names9 = list(TABLE9_ROIS_PER_IMAGE)
    rates = np.array([TABLE9_ROIS_PER_IMAGE[names9[c % 5]] for c in range(n_c)])
    names = [names9[c % 5] + ("" if c < 5 else f"-{c // 5 + 1}") for c in range(n_c)]
    cells = grid * grid
    expected = np.maximum(1.0, cells * rates / _PAPER_REGIONS)
    q = np.clip((expected - 1.0) / (cells - 1), 0.0, 1.0)
    side = grid * patch
    n = n_c * n_per
    images = np.empty((n, side, side), dtype=np.float32)
    concept = np.repeat(np.arange(n_c), n_per)
    bags, masks = [], []
    for i in range(n):
        c = int(concept[i])
        k = 1 + int(rng.binomial(cells - 1, q[c]))
        roi = np.zeros(cells, dtype=bool)
        roi[_blob(rng, grid, k)] = True
        img = np.empty((side, side))
        for j in range(cells):
            r, s = divmod(j, grid)
            if roi[j]:
                p = objs[rng.choice(target_rows[c])] * rng.uniform(0.6, 1.1)
            elif rng.random() < clutter:
                p = objs[rng.choice(clutter_rows)] * rng.uniform(0.6, 1.1)
            else:
                t = rng.standard_normal((patch, patch))
                for _ in range(int(rng.integers(4))):
                    t = _box3(t)
                t = (t - t.mean()) / (t.std() + 1e-12)
                p = rng.uniform(0.0, 0.6) + rng.uniform(0.02, 0.3) * t
            p = p + noise * rng.standard_normal((patch, patch))
            img[r * patch:(r + 1) * patch, s * patch:(s + 1) * patch] = p
        img = np.clip(img, 0.0, 1.0)
        images[i] = img
        bags.append(roi_patch_features(img, grid, patch))
        masks.append(roi)
    return ROIImageBags(bags=bags, concept=concept, roi_masks=masks, images=images, grid=grid,
                        patch=patch, concept_names=names, target_objects=tuple(targets),
                        expected_rois=expected,
                        recipe=ROI_RECIPE + (
                            f"This draw: make_roi_bags(n_per_concept={n_per}, concepts={n_c}, "
                            f"grid={grid}, patch={patch}, clutter={clutter}, noise={noise}, "
                            f"pose_window={pose_window}, random_state={random_state!r}).\n"),
                        meta={"n_per_concept": n_per, "clutter": float(clutter),
                              "pose_window": pose_window,
                              "noise": float(noise), "table9": dict(TABLE9_ROIS_PER_IMAGE),
                              "paper_regions_per_image": _PAPER_REGIONS})


def roi_splits(concepts_of_images, n_train_per_concept: int = 10, n_splits: int = 10,
               random_state=None) -> list[tuple[np.ndarray, np.ndarray]]:
    """Train/test splits of the ROI protocol (Li et al. 2013, Sec. 5.2).

    In each split, ``n_train_per_concept`` images of every concept are drawn at random
    (without replacement) for training; all the others are the test set.

    Parameters
    ----------
    concepts_of_images : array-like (n_images,)
        Concept of each image.
    n_train_per_concept : int, default=10
    n_splits : int, default=10
    random_state : int, Generator or None

    Returns
    -------
    list of (train, test)
        Sorted int64 index arrays, one pair per split.
    """
    c = np.asarray(concepts_of_images)
    if c.ndim != 1 or c.shape[0] == 0:
        raise ValueError(f"concepts_of_images must be a non-empty 1-D array, got shape "
                         f"{c.shape}.")
    k = check_int(n_train_per_concept, "n_train_per_concept", minimum=1)
    n_splits = check_int(n_splits, "n_splits", minimum=1)
    labels, counts = np.unique(c, return_counts=True)
    if np.any(counts <= k):
        bad = labels[counts <= k][0]
        raise ValueError(f"n_train_per_concept={k} leaves no test image of concept {bad!r} "
                         f"({counts[labels == bad][0]} images).")
    rng = check_random_state(random_state)
    out = []
    for _ in range(n_splits):
        train = np.sort(np.concatenate([rng.choice(np.flatnonzero(c == v), k, replace=False)
                                        for v in labels])).astype(np.int64)
        test = np.setdiff1d(np.arange(c.shape[0]), train).astype(np.int64)
        out.append((train, test))
    return out
