"""The engines' Python side: the compiled engine's wrapper (compiled) and the best-Symposion
search by card names (search). Imports the model, the kernels and the reference, nothing
above them."""
