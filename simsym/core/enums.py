"""Every integer layout and constant the kernels share, in one module without numba.

The encoders (simsym.model.cards.encode, simsym.model.rules, simsym.model.strategies,
simsym.engine.compiled), the kernels (simsym.core.game_nb, simsym.core.search_nb) and the
readers of their output (simsym.run, simsym.analysis, ...) all import their layouts from
here, so importing a layout never compiles or loads a kernel. Each layout has a prefix of its own:

| prefix | array | filled by |
| --- | --- | --- |
| ``T_`` | Symposion type codes | |
| ``CF_``, ``OPT_``, ``STF_`` | card table (one row a kind) | simsym.model.cards.encode |
| ``RES_``, ``CH_`` | result row of the search | search_nb |
| ``RULE_`` | rule array | simsym.model.rules.encode_rules |
| ``GP_`` | game parameters | simsym.engine.compiled.setup_for |
| ``SP_``, ``FAM_`` | strategy parameters (one row a strategy) | simsym.model.strategies |
| ``GS_``, ``AT_`` | game-state scalars and where a game stands | game_nb |
| ``EV_`` | event codes (docs/game-engine.md section 7) | game_nb |
| ``CS_`` | per seat and kind card statistics of a game | game_nb |
| ``ROW_`` | per-game result row | game_nb |
| ``AGG_`` | per strategy and kind aggregate of a chunk | game_nb |
| ``CK_`` | a chunk of games in one call: its scalars, rows and aggregate | simsym.engine.compiled |
| ``MEMO_`` | per-seat memo of hand searches | game_nb |
| ``BT_``, ``BTR_``, ``BTS_`` | trade-candidate bound table, its rows, its scratch | game_nb |

The search's private layouts (its workspace rows, ``S_``, ``A_``, ``X_``, and its groups
``G_``) stay in search_nb, which alone reads them.
"""

# Symposion types, in the canonical order (also the tie-break order).
T_INTELLECTUAL = 0
T_SOCIAL = 1
T_HEDONISTIC = 2
T_NONE = -1
TYPE_NAMES = ("intellectual", "social", "hedonistic")

# Columns of the card-kind table (one row a kind). Their order is the search's: a search
# reads a few columns of each card's row, and a row is 136 columns (17 lines of 64 bytes),
# so the columns it reads for every card come first, eight to a line (encode_cards starts
# the table and so every row on a line), then the options, then the walk states with the
# Social block on lines of its own, then the columns only the game or the encoding read.
# Most are derived (simsym.model.cards.encode fills them from the flags and options, for every
# setting of the two rule options they depend on), so the search reads one value where it
# would otherwise recompute it from the options on every call.
# Base games then miss the data cache ~19% less a game (callgrind's model) and the search
# on hands met one after the other ~58% less.
# Line 0: what _card_states reads first for any card.
CF_AL = 0  # 2 columns, [io_bars_mw off, on]: search groups the kind may join
CF_WOMAN = 2
CF_MW = 3
CF_NOPT = 4
CF_FREE = 5  # 1 when not Vintage and with no requirement
CF_WM = 6  # bitmask of the options with Wine (printed or scored)
CF_OKI = 7  # bitmask of the options usable in Intellectual
# Line 1: ... and _group_bounds; the class (see below).
CF_OKH = 8  # ... in Hedonistic
CF_IO = 9
CF_WMAT = 10  # 2 columns, [io_bars_mw off, on]: groups in which it makes women matter (it
#               requires women)
CF_PUB = 12  # 2 columns (see below)
CF_CLS = 14  # (see below)
CF_VINTAGE = 15
# Line 2: _group_bounds; an enumerated card (_card_states, _option_states).
CF_PWX = 16  # 4 columns (see below)
CF_CONTAINER = 20
CF_REQ_WOMEN = 21
CF_REQ_WINE = 22
CF_BVS = 23  # best value of any option (-1: none)
# Line 3: Intellectual and Hedonistic cards.
CF_BI = 24  # best option usable in Intellectual (-1: none) and its value
CF_BVI = 25
CF_BH = 26  # ... in Hedonistic
CF_BVH = 27
CF_BWI = 28  # 2 columns, [printed, scored]: largest counted Wine of an I option
CF_BWH = 30  # ... of an H option
# Line 4: a Social card (CF_BWS for an enumerated one, the first option for a free one).
CF_BWS = 32  # ... of any option
CF_OPT = 34  # then MAX_OPTIONS blocks of OPT_SIZE
OPT_WINE = 0
OPT_WINE_SCORED = 1
OPT_I = 2
OPT_H = 3
OPT_E = 4
OPT_SIZE = 5
MAX_OPTIONS = 4
# Per search group (search_nb: Intellectual, Intellectual with IO cards, Social, Hedonistic),
# the column of a kind's best value and of its largest counted wine [printed, scored].
CF_GROUP_BV = (CF_BVI, CF_BVI, CF_BVS, CF_BVH)
CF_GROUP_BW = (CF_BWI, CF_BWI, CF_BWS, CF_BWH)
LANE = 16  # bits of one lane of a packed word (the card table's CF_ST, CF_PUB and CF_PWX)
# Each kind's walk states per search type (T_INTELLECTUAL, T_SOCIAL, T_HEDONISTIC: a block of
# CF_ST_BLOCK columns each, from CF_ST + t * CF_ST_BLOCK): how many options the type may use,
# then per such option, highest value first (the earlier option first among equals), the
# search's packed state words (search_nb.S_P0 ..., ``CF_ST_SIZE`` columns a state). The
# Social block, the one read most, starts a line (column 80).
CF_ST_SIZE = 6
CF_ST_BLOCK = 1 + MAX_OPTIONS * CF_ST_SIZE
CF_ST = 80 - CF_ST_BLOCK
STF_P0 = 0  # 2 columns, [printed, scored] counted wine: CW | NCW << 16 | VINT << 32 | VAL << 48
STF_P1 = 2  # 2 columns, [printed, scored] bonus wine: IN | WB << 16 (WOMEN is the search's)
STF_P2 = 4  # I | H << 16 | E << 32, as the type counts them
STF_OPT = 5  # the option
# The search groups' bounds, one 16-bit lane a group (search_nb.NGROUPS; 0 where the kind may
# not join): CF_PUB, 2 columns [io_bars_mw off, on] of the best value (CF_BVI, CF_BVI, CF_BVS,
# CF_BVH), and CF_PWX, 4 columns [io_bars_mw][printed, scored] of the largest counted wine.
# CF_CLS, the kind's behaviour class: the lowest kind whose every other column is the same
# (the same options, flags, requirements: cards a play may swap without changing anything but
# the kinds it lists). The search walks one of each set of such plays (search_nb._walk).
# The rest: what only the game (draws) and encode_cards (the groups a kind may join) read.
CF_HO = CF_ST + 3 * CF_ST_BLOCK
CF_NI = CF_HO + 1
CF_NH = CF_HO + 2
CF_SO = CF_HO + 3
CF_DRAWS = CF_HO + 4
CF_DRAW_USABLE = CF_HO + 5
# Lines 17-18: the Social group's closed form (search_nb._social_cf), for the card shapes it
# covers. CF_SCF: SCF_NONE (the kind never joins a Social play), SCF_FREE (one option of
# points in one category, 1 to SCF_MAX_FREE, no Wine, Vintage or requirement), SCF_ENUM (a
# kind with Wine, a Vintage or several options, no requirement, E items of 1 or 2, every field
# of a state at most SCF_MAX_FIELD) or SCF_OTHER (any other: such a hand takes the general
# walk). CF_SCF_FREE, a free kind: its class (category x 5 + points - 1) | I << 8 | H << 16
# | 1E items << 24 | 2E items << 32 | points << 40. An enumerated kind: its options in
# CF_SCF_ST (packed words: printed W | scored W << 8 | non-Container printed W << 16 |
# Vintage << 24 | I << 32 | H << 40 | 1E items << 48 | 2E items << 56), highest value first
# (the earlier option first among equals), each option's index | its value << 8 in
# CF_SCF_OPT, their number in CF_SCF_NS, the largest printed Wine in CF_SCF_MAXP and the
# first (largest) value in CF_SCF_VAL.
CF_SCF = CF_HO + 6
CF_SCF_FREE = CF_SCF + 1
CF_SCF_NS = CF_SCF + 2
CF_SCF_MAXP = CF_SCF + 3
CF_SCF_VAL = CF_SCF + 4
CF_SCF_ST = CF_SCF + 5  # MAX_OPTIONS columns
CF_SCF_OPT = CF_SCF_ST + MAX_OPTIONS  # MAX_OPTIONS columns
# The deck's exclusion vectors for _social_cf (a table of the deck, not of a kind): every
# vector of counts of free cards per class (CF_SCF_FREE's class, numbered among the deck's
# classes) losing at most SCF_MAX_FREE points, by points lost. Vector v takes two words, in
# row v // XR_PER_ROW from column CF_XR + 2 * (v % XR_PER_ROW): its counts (8-bit lanes) |
# (cards | points lost << 4) << 56, then (class | count << 3) << 6 x i for its nonzero
# classes | its I, H and E items as a packed state word's (bits 32 to 63). CF_XR_STARTS, in
# row 0: where the vectors losing 0, 1, ... SCF_MAX_FREE + 1 points start (9 bits each), or
# -1 when the deck has no such table (more than SCF_MAX_CLASSES classes, or more vectors than
# XR_PER_ROW x kinds or 511): then its hands take the general walk.
CF_XR_STARTS = CF_SCF + 13
CF_XR = CF_SCF + 16  # a line of XR_PER_ROW vectors
XR_PER_ROW = 4
CF_SIZE = CF_XR + 2 * XR_PER_ROW
SCF_MAX_CLASSES = 7
SCF_NONE = 0
SCF_FREE = 1
SCF_ENUM = 2
SCF_OTHER = 3
SCF_MAX_FREE = 5
SCF_MAX_FIELD = 15
assert CF_SIZE % 8 == 0 and CF_OPT + MAX_OPTIONS * OPT_SIZE <= CF_ST  # rows of whole lines

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


# --- the rule array (simsym.model.rules.encode_rules) ---------------------------------------------
RULE_WINE_LO = 0  # 3 entries: per Symposion type
RULE_WINE_HI = 3  # 3 entries
RULE_WINE_SCORED = 6
RULE_NON_CONTAINER = 7
RULE_MAX_VINTAGE = 8
RULE_EITHER_SPLIT = 9
RULE_IO_BARS_MW = 10
RULE_BONUS_EQ = 11
RULE_BONUS_ALL = 12
RULE_BONUS_STACKS = 13
RULE_BONUS_WINE_SCORED = 14
RULE_SIZE = 15

# --- game parameters (int64 array ``gp``, simsym.engine.compiled.setup_for) -----------------------
GP_HAND_SIZE = 0
GP_DECK_RUNS = 1
GP_TURN_CAP = 2
GP_DISCARD_LIMIT = 3
GP_TRADING = 4
GP_BETWEEN = 5
GP_UNEVEN = 6
GP_MAX_TRADES = 7
GP_KOMOS = 8
GP_MAY_JOIN = 9
GP_CHAIN = 10
GP_SYMPOSIA = 11
GP_SEATING = 12  # SEATING_MIRROR, SEATING_ROTATE or SEATING_RANDOM
GP_PLAYERS = 13
GP_COMP = 14  # then one a seat (6)
GP_SIZE = GP_COMP + 6
SEATING_MIRROR, SEATING_ROTATE, SEATING_RANDOM = range(3)
MAX_PLAYERS = 6

# --- strategies: families and the parameter row (simsym.model.strategies.encode_strategy) ---------
FAM_GREEDY, FAM_PATIENT, FAM_SPECIALIST, FAM_RANDOM, FAM_LOOKAHEAD, FAM_LEARNED = range(6)
# Families from FAM_LOOKAHEAD on decide through the lookahead's game loop (lookahead_nb): the
# search, or the learned model over the same candidates.
SP_FAMILY, SP_DISCARD_MAX, SP_KEEP_THRESHOLD, SP_WINE_WEIGHT, SP_TRADE, SP_TRADE_CANDIDATES, \
    SP_TRADE_INACTIVE, SP_THRESHOLD, SP_LATE_RUN, SP_FAVOURS, SP_FOCUS, SP_FALLBACK = range(12)
# lookahead (docs/game-engine.md 6.6): its budget, candidates and rollout policy
# (POLICY_GREEDY or POLICY_OWN); the row it plays inside rollouts under POLICY_OWN (its
# greedy twin; every other strategy's own row); and the default greedy row.
SP_ITERATIONS, SP_CANDIDATES, SP_POLICY, SP_TWIN, SP_GREEDY = range(12, 17)
# under POLICY_LEARNED: the row of the learned strategy every seat plays inside rollouts
SP_LEARNED = 17
SP_SIZE = 18
POLICY_GREEDY, POLICY_OWN, POLICY_LEARNED = range(3)

# --- the game state (game_nb.State): its scalars, ``sc`` -------------------------------------
GS_NPILE = 0  # cards in the draw pile (its top is pile[GS_NPILE - 1])
GS_NDISC = 1  # cards in the discard pile
GS_RUNS = 2  # deck runs ended
GS_NEV = 3  # events logged
GS_MAXEV = 4  # room for events (0: no log)
GS_TURN = 5
GS_AT = 6  # where the game stands: an AT_ code below
GS_STALLED = 7
GS_TRADES = 8  # swaps made in the game
GS_MADE = 9  # swaps made in this turn's Symposiarch phase
GS_TSTEP = 10  # trading: 0 the active seat's attempts, s > 0 the attempt of seat a + s next
GS_DEAL = 11
# A lookahead seat asked to accept a trade (docs 6.6): the trade code stops (LA_PEND = 1)
# with the query (giver, asked seat, w*, x, x2, greedy's answer) so the engine can search,
# then re-runs the attempt with the answers given so far (LA_NF of them from LA_F0; LA_Q
# counts the queries of the current run).
GS_LA_PEND = 12
GS_LA_QI = 13
GS_LA_QH = 14
GS_LA_QW = 15
GS_LA_QX = 16
GS_LA_QX2 = 17
GS_LA_QG = 18
GS_LA_Q = 19
GS_LA_NF = 20
GS_LA_F0 = 21
LA_MAX_QUERIES = 16  # an attempt asks each other seat at most twice (even, then uneven)
GS_SIZE = GS_LA_F0 + LA_MAX_QUERIES
# Phase boundaries: the state is "at" the start of one of these (docs/game-engine.md,
# "Rollouts"). A turn goes AT_TURN (end checks, TURN event), AT_AMPHORAE, AT_DISCARDS
# (Symposiarch discards and redraws), AT_TRADING, AT_SYMPOSION, AT_KOMOS, then the next turn.
AT_DEAL, AT_TURN, AT_AMPHORAE, AT_DISCARDS, AT_TRADING, AT_SYMPOSION, AT_KOMOS, AT_OVER = \
    range(8)

# --- events: docs/game-engine.md section 7 ---------------------------------------------------
EV_TURN, EV_DRAW, EV_RUN_END, EV_DISCARD, EV_TRADE, EV_PLAY, EV_PLAYCARD, EV_JOIN, EV_SCORE, \
    EV_END = range(1, 11)
EV_SIZE = 5  # code and four fields
SRC_DEAL, SRC_AMPHORAE, SRC_SYMPOSIARCH, SRC_ANDRON = range(4)  # DRAW sources
DISCARD_SYMPOSIARCH, DISCARD_KOMOS = 1, 2  # DISCARD phases

# --- per seat and kind statistics of one game (``cs``, docs section 8) -----------------------
CS_OPENING, CS_DRAWN, CS_RECEIVED, CS_HELD, CS_PLAYED, CS_POINTS, CS_END, CS_DISCARDED = range(8)
CS_SIZE = 8

# --- the per-game row: these, then P seat scores, P seat strategies, P symposia, 3P points by
# type (seat-major) ----------------------------------------------------------------------------
ROW_DEAL = 0
ROW_TURNS = 1
ROW_STALLED = 2
ROW_TRADES = 3
ROW_FIXED = 4

# --- the per strategy and kind aggregate of a chunk (``agg``), summed over player-games ------
AGG_OH_N = 0  # player-games where the card was in the opening hand
AGG_OH_W = 1  # ... and their win units (WIN_UNITS a whole win)
AGG_GD_N = 2  # drawn later and not in the opening hand
AGG_GD_W = 3
AGG_GIH_N = 4  # held at any time
AGG_GIH_W = 5
AGG_PLAYED = 6  # times played
AGG_PLAYED_N = 7  # player-games where played at least once
AGG_POINTS = 8  # points of the Symposia it was played in
AGG_END = 9  # held at game end (count)
AGG_DISCARDED = 10  # discarded unplayed (count)
AGG_TRADED = 11  # received by trade (count)
AGG_HELD_UNPLAYED_N = 12  # player-games where held but never played ("dead")
AGG_SIZE = 13
WIN_UNITS = 60  # divisible by 1..6: tied wins stay whole numbers

# --- a chunk of games played in one call (``State.out``, int64; simsym.engine.compiled.run_chunk) -
# These scalars, then the chunk's per-game rows (games x CK_ROW, ROW_ layout) and its
# aggregate (CK_NSTRAT x kinds x AGG_SIZE).
CK_G0 = 0  # the chunk's first game
CK_G = 1  # the game being played (the next one to start)
CK_G1 = 2  # one past the chunk's last game
CK_SEED = 3  # the run's seed
CK_ROW = 4  # entries of a row
CK_NSTRAT = 5  # the aggregate's strategies
CK_SIZE = 6

ALL_TYPES = 7  # the type mask of every Symposion type

# --- the per-seat memo of hand searches (``memo``, int64 (P, MEMO_SIZE)) ---------------------
# The hand's version (bumped by every mutation), the seat's own type mask, a lower bound on
# the score of its own best play (0 when unknown; every card removal resets it), then per
# type mask the version its cached search result is for, and the results; then the version
# _may_play's packed sums of the hand are for (game_nb._swap_may_play) and those four sums.
MEMO_VER = 0
MEMO_OWN = 1
MEMO_LB = 2
MEMO_CVER = 3
MEMO_RES = MEMO_CVER + 8
MEMO_PKVER = MEMO_RES + 8 * RES_SIZE
MEMO_PK = MEMO_PKVER + 1
MEMO_SIZE = MEMO_PK + 4

# --- the trade-candidate bound table (``bt``, int64) -----------------------------------------
# A header, then per (kind, group) a row of BT_W (the BTR_ columns): usable in the group, best
# value of a usable wineless option (0 if none), number of usable options, their largest counted
# wine, whether the kind counts as a woman there, its requirements (women, counted wine),
# whether it is Vintage, its largest counted wine when it is not a Container (0 when it is),
# then (counted wine, value) of each usable option. Groups as in the search: Intellectual twice
# (without IO cards; with them but no WC/MW), Social, Hedonistic. The state's ``bscr`` holds per
# group a scratch block of BT_SCR (the BTS_ offsets): the base value, the knapsack's wine cap,
# the women the cards may bring, two knapsack rows (no Vintage card; at most one) and, per
# counted wine of the card to add, each row's best value in the window.
BT_ON = 0  # 1 when the bound may be used
BT_LO = 1  # 4 entries: per group
BT_HI = 5
BT_BONUS = 9
BT_MAXCW = 13  # largest counted wine of a usable option of any kind, per group
BT_BONUS_NAE = 17  # 4 entries: per group the largest bonus of a play that is not all-equal
BT_VMODE = 21  # Vintage in the bound: 0 none may be played, 1 at most one, 2 not bounded
BT_NCW = 22  # counted wine a play must take from non-Container cards (the rule)
BT_PK = 23  # where the packed wine words start (after the rows), or 0 when they are off
BT_TAB = 24
BT_MAY_AE = 1 << 8  # _bound_may_beat: only an all-equal Social play may beat the floor
BTR_JOIN = 0
BTR_NW = 1
BTR_NO = 2
BTR_MCW = 3
BTR_WOMAN = 4
BTR_REQW = 5
BTR_REQWINE = 6
BTR_VINT = 7
BTR_NCW = 8
BTR_IO = 9  # 1 for an IO card (group 1's plays hold one)
BTR_OPT = 10  # then (counted wine, value) per usable option
BT_W = BTR_OPT + 2 * MAX_OPTIONS
BT_WMAX = 64
# The packed wine words of _may_play, per kind after the rows: BTP_MCW and BTP_NCW hold per
# group (16 bits each, group g at bit 16 g) the row's BTR_MCW and BTR_NCW, each capped at what
# _may_play asks of the group (its window's low end, the rule's non-Container wine), so that
# the lanes of a hand's sum cannot overflow; BTP_VINT is 1 for a Vintage kind.
BTP_MCW = 0
BTP_NCW = 1
BTP_VINT = 2
BTP_W = 3
BTP_CAP = 255  # the largest cap the words hold; 257 cards of it fill a lane
BTP_MAXN = 257
BTS_BASE = 0
BTS_CAP = 1
BTS_WOMEN = 2
BTS_DP = 3  # 4 rows of BT_WMAX + 1: knapsack without Vintage, with at most one, their maxima
BT_SCR = BTS_DP + 4 * (BT_WMAX + 1)
BT_NEG = -(1 << 40)
