"""numba kernels over flat integer arrays. Nothing here knows about names, YAML or pandas."""
