"""The words for the settings' values (pure): the same in every page's widgets and text."""

DATASET_LABELS = {
    "d1": "Book D1: separable (slide 15)",
    "d2": "Book D2: not separable (slide 21)",
    "iris_setosa": "Iris: setosa vs others (slide 34)",
    "iris_versicolor_pca": "Iris: versicolor vs others, PCA (slide 35)",
    "nonlinear": "Nonlinear bump (slide 25)",
    "two_point": "Two points: KKT by hand",
    "blobs": "Generator: two blobs",
    "moons": "Generator: moons",
    "circles": "Generator: circles",
    "xor": "Generator: XOR",
}
KERNEL_LABELS = {"linear": "linear", "polynomial": "polynomial", "gaussian": "Gaussian (RBF)"}
COEF0_LABELS = {0.0: "homogeneous c = 0", 1.0: "inhomogeneous c = 1"}
LOSS_LABELS = {"hinge": "hinge (k = 1)", "quadratic": "quadratic (k = 2)"}
BIAS_LABELS = {"free": "free b", "augmented": "augmented (b in w, as in the book)"}
WSS_LABELS = {"second_order": "second order (LIBSVM)", "max_violating_pair": "max violating pair"}
