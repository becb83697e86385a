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
CF_SIZE = CF_OPT + MAX_OPTIONS * OPT_SIZE

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
