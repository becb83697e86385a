"""tools/profile_kernels.py names numba's functions from their mangled symbols."""

import importlib.util
from pathlib import Path

spec = importlib.util.spec_from_file_location(
    "profile_kernels", Path(__file__).parents[1] / "tools" / "profile_kernels.py")
profile_kernels = importlib.util.module_from_spec(spec)
spec.loader.exec_module(profile_kernels)


def test_short_names_of_numba_symbols():
    name = profile_kernels.short_name
    assert name("_ZN6simsym4core9search_nb10_best_coreB3v53B40c8tJTIeFIjxB2IKSgI4CrvSCKg1MMVC"
                "_2fAwA_3dE5ArrayIxLi1E1C7mutable7alignedE") == "search_nb._best_core"
    assert name("_ZN6simsym4core7game_nb11_bound_prepB4v157B36c8tJTIeFE") == \
        "game_nb._bound_prep"
    assert name("NRT_incref") == "NRT_incref"
