"""Integer layouts shared by the encoders and the kernels."""

# Symposion types, in the canonical order (also the tie-break order).
T_INTELLECTUAL = 0
T_SOCIAL = 1
T_HEDONISTIC = 2
T_NONE = -1
TYPE_NAMES = ("intellectual", "social", "hedonistic")

# Columns of the card-kind table (one row a kind).
CF_NOPT = 0
CF_CONTAINER = 1
CF_VINTAGE = 2
CF_WOMAN = 3
CF_MW = 4
CF_IO = 5
CF_HO = 6
CF_NI = 7
CF_NH = 8
CF_SO = 9
CF_REQ_WOMEN = 10
CF_REQ_WINE = 11
CF_DRAWS = 12
CF_DRAW_USABLE = 13
CF_OPT = 14  # then MAX_OPTIONS blocks of OPT_SIZE
OPT_WINE = 0
OPT_WINE_SCORED = 1
OPT_I = 2
OPT_H = 3
OPT_E = 4
OPT_SIZE = 5
MAX_OPTIONS = 4
# Derived columns (simsym.cards.encode fills them from the ones above, for every setting of
# the two rule options they depend on), so the search reads one value where it would
# otherwise recompute it from the options on every call.
CF_OKI = CF_OPT + MAX_OPTIONS * OPT_SIZE  # bitmask of the options usable in Intellectual
CF_OKH = CF_OKI + 1  # ... in Hedonistic
CF_WM = CF_OKI + 2  # ... of the options with Wine (printed or scored)
CF_BI = CF_OKI + 3  # best option usable in Intellectual (-1: none) and its value
CF_BVI = CF_OKI + 4
CF_BH = CF_OKI + 5  # ... in Hedonistic
CF_BVH = CF_OKI + 6
CF_BVS = CF_OKI + 7  # best value of any option (-1: none)
CF_BWI = CF_OKI + 8  # 2 columns, [printed, scored]: largest counted Wine of an I option
CF_BWH = CF_OKI + 10  # ... of an H option
CF_BWS = CF_OKI + 12  # ... of any option
CF_AL = CF_OKI + 14  # 2 columns, [io_bars_mw off, on]: search groups the kind may join
CF_WMAT = CF_OKI + 16  # ... groups in which it makes women matter (it requires women)
CF_FREE = CF_OKI + 18  # 1 when not Vintage and with no requirement
CF_SIZE = CF_OKI + 19

# Result array of the search kernel.
RES_SCORE = 0
RES_TYPE = 1
RES_MASK = 2  # bitmask over hand positions
RES_WINE = 3  # scored wine
RES_I = 4
RES_H = 5
RES_BONUS = 6
RES_NCARDS = 7
RES_PER_CARD = 8  # then MAX_HAND entries of per-card choice codes
MAX_HAND = 60  # positions a result mask holds; larger hands are searched on their first 60
RES_SIZE = RES_PER_CARD + MAX_HAND

# Per-card choice code: option index + 8 * (E points given to Intellectual)
#  + 4096 * (1 if counted as a woman).
CH_E_SHIFT = 8
CH_WOMAN = 4096
