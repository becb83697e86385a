"""tools/profile_kernels.py names numba's functions from their mangled symbols."""

import importlib.util
from pathlib import Path

spec = importlib.util.spec_from_file_location(
    "profile_kernels", Path(__file__).parents[2] / "tools" / "profile_kernels.py")
profile_kernels = importlib.util.module_from_spec(spec)
spec.loader.exec_module(profile_kernels)


def test_short_names_of_numba_symbols():
    name = profile_kernels.short_name
    assert name("_ZN6simsym4core9search_nb10_best_coreB3v53B40c8tJTIeFIjxB2IKSgI4CrvSCKg1MMVC"
                "_2fAwA_3dE5ArrayIxLi1E1C7mutable7alignedE") == "search_nb._best_core"
    assert name("_ZN6simsym4core7game_nb11_bound_prepB4v157B36c8tJTIeFE") == \
        "game_nb._bound_prep"
    assert name("NRT_incref") == "NRT_incref"


OBJDUMP = """
/tmp/x.bin:     file format binary


Disassembly of section .data:

0000000000001000 <.data>:
    1000:	48 89 c8             	mov    %rcx,%rax
    1003:	48 c1 f8 3f          	sar    $0x3f,%rax
    1007:	48 23 05 00 00 00 00 	and    0x0(%rip),%rax
    100e:	c3                   	ret
"""


def test_objdump_lines_become_addresses_and_instructions():
    got = profile_kernels.parse_objdump(OBJDUMP)
    assert got == [(0x1000, "mov    %rcx,%rax"), (0x1003, "sar    $0x3f,%rax"),
                   (0x1007, "and    0x0(%rip),%rax"), (0x100e, "ret")]


def test_hot_windows_are_the_stretches_with_most_samples():
    listing = [(a, "nop") for a in range(100, 110)]
    samples = {100: 1, 101: 1, 104: 5, 108: 2, 109: 2, 500: 99}  # 500 is another function's
    # Stretches of 4: [100..103] 2 samples, [104..107] 5, [108..109] 4.
    assert profile_kernels.hot_windows(listing, samples, 4, 2) == [(5, 4), (4, 8)]
    assert profile_kernels.hot_windows(listing, samples, 4, 9) == [(5, 4), (4, 8), (2, 0)]
    assert profile_kernels.hot_windows(listing, {}, 4, 3) == []  # no samples, no stretch


def test_dump_code_copies_what_the_map_names(tmp_path):
    # The bytes of a buffer of this process, named in a perf map, come back as they are; a
    # map entry whose memory cannot be read is left out rather than faulting.
    import ctypes

    buf = ctypes.create_string_buffer(b"\x90\xc3simsym", 8)
    addr = ctypes.addressof(buf)
    mp = tmp_path / "perf.map"
    mp.write_text(f"{addr:x} 8 f\n10 8 nowhere\n")
    meta = profile_kernels.dump_code(str(mp), str(tmp_path / "code.bin"))
    assert [m[:3] for m in meta] == [(addr, 8, "f")]
    assert (tmp_path / "code.bin").read_bytes() == b"\x90\xc3simsym"
