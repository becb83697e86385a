"""Every integer layout and constant the kernels share, in one module without numba.

The encoders (simsym.model.cards.encode, simsym.model.rules, simsym.model.strategies,
simsym.engine.compiled), the kernels (simsym.core.game_nb, simsym.core.search_nb) and the
readers of their output (simsym.run, simsym.analysis, ...) all import their layouts from
here, so importing a layout never compiles or loads a kernel. Each record is declared once
(simsym.core.layout): its fields in order, from which the offsets follow (``GS.NDISC``,
``CF.OPT + o * OPT.SIZE``); each set of codes is an enumeration (``AT.TURN``, ``EV.DRAW``).

| record or codes | array | filled by |
| --- | --- | --- |
| ``T_`` | Symposion type codes | |
| ``CF``, ``OPT``, ``STF`` | card table (a row a kind), option, walk state | model.cards.encode |
| ``RES``, ``CH_`` | result row of the search | search_nb |
| ``RULE`` | rule array | simsym.model.rules.encode_rules |
| ``GP``, ``SEATING`` | game parameters | simsym.engine.compiled.setup_for |
| ``SP``, ``FAM``, ``POLICY`` | strategy parameters (one row a strategy) | simsym.model.strategies |
| ``GS``, ``AT`` | game-state scalars and where a game stands | game_nb |
| ``EV``, ``SRC``, ``DISCARD`` | events (docs/game-engine.md section 7) | game_nb |
| ``CS`` | per seat and kind card statistics of a game | game_nb |
| ``ROW`` | per-game result row | game_nb |
| ``AGG`` | per strategy and kind aggregate of a chunk | game_nb |
| ``CK`` | a chunk of games in one call: its scalars, rows and aggregate | simsym.engine.compiled |
| ``MEMO`` | per-seat memo of hand searches | game_nb |
| ``BT``, ``BTR``, ``BTP``, ``BTS`` | trade bound table: header, rows, words, scratch | game_nb |

The search's private layouts (its workspace ``WORK``, its state rows ``ST`` and accumulator
``ACC``) stay in search_nb, which alone reads them; the lookahead's labelling records
(``LAB``, ``LC``) in lookahead_nb.
"""

from simsym.core.layout import codes, layout

# Symposion types, in the canonical order (also the tie-break order).
T_INTELLECTUAL = 0
T_SOCIAL = 1
T_HEDONISTIC = 2
T_NONE = -1
TYPE_NAMES = ("intellectual", "social", "hedonistic")

# Columns of the card-kind table (one row a kind). Their order is the search's: a search
# reads a few columns of each card's row, and a row is 160 columns (20 lines of 64 bytes),
# so the columns it reads for every card come first, eight to a line (encode_cards starts
# the table and so every row on a line), then the options, then the walk states with the
# Social block on lines of its own, then the columns only the game or the encoding read.
# Most are derived (simsym.model.cards.encode fills them from the flags and options, for every
# setting of the two rule options they depend on), so the search reads one value where it
# would otherwise recompute it from the options on every call.
# Base games then miss the data cache ~19% less a game (callgrind's model) and the search
# on hands met one after the other ~58% less.
MAX_OPTIONS = 4
# An option's columns (CF.OPT + o * OPT.SIZE: option o).
OPT = layout("OPT", "WINE", "WINE_SCORED", "I", "H", "E")
# A walk state's columns (see CF.ST below).
STF = layout(
    "STF",
    ("P0", 2),  # [printed, scored] counted wine: CW | NCW << 16 | VINT << 32 | VAL << 48
    ("P1", 2),  # [printed, scored] bonus wine: IN | WB << 16 (WOMEN is the search's)
    "P2",  # I | H << 16 | E << 32, as the type counts them
    "OPT",  # the option
)
ST_BLOCK = 1 + MAX_OPTIONS * STF.SIZE  # a type's walk states (see CF.ST)
XR_PER_ROW = 4
CF = layout(
    "CF",
    # Line 0: what _card_states reads first for any card.
    ("AL", 2),  # [io_bars_mw off, on]: search groups the kind may join
    "WOMAN",
    "MW",
    "NOPT",
    "FREE",  # 1 when not Vintage and with no requirement
    "WM",  # bitmask of the options with Wine (printed or scored)
    "OKI",  # bitmask of the options usable in Intellectual
    # Line 1: ... and _group_bounds; the class (see below).
    "OKH",  # ... in Hedonistic
    "IO",
    ("WMAT", 2),  # [io_bars_mw off, on]: groups in which it makes women matter (it requires
    #               women)
    ("PUB", 2),  # (see below)
    "CLS",  # (see below)
    "VINTAGE",
    # Line 2: _group_bounds; an enumerated card (_card_states, _option_states).
    ("PWX", 4),  # (see below)
    "CONTAINER",
    "REQ_WOMEN",
    "REQ_WINE",
    "BVS",  # best value of any option (-1: none)
    # Line 3: Intellectual and Hedonistic cards.
    "BI",  # best option usable in Intellectual (-1: none) and its value
    "BVI",
    "BH",  # ... in Hedonistic
    "BVH",
    ("BWI", 2),  # [printed, scored]: largest counted Wine of an I option
    ("BWH", 2),  # ... of an H option
    # Line 4: a Social card (BWS for an enumerated one, the first option for a free one).
    ("BWS", 2),  # ... of any option
    ("OPT", MAX_OPTIONS * OPT.SIZE),  # MAX_OPTIONS blocks of OPT
    ("PAD", 80 - ST_BLOCK - 34 - MAX_OPTIONS * OPT.SIZE),  # so the Social block starts a line
    # Each kind's walk states per search type (T_INTELLECTUAL, T_SOCIAL, T_HEDONISTIC: a
    # block of ST_BLOCK columns each, from CF.ST + t * ST_BLOCK): how many options the type
    # may use, then per such option, highest value first (the earlier option first among
    # equals), the search's packed state words (search_nb.ST.P0 ..., an STF record a state).
    # The Social block, the one read most, starts a line (column 80).
    ("ST", 3 * ST_BLOCK),
    # The rest: what only the game (draws) and encode_cards (the groups a kind may join) read.
    "HO",
    "NI",
    "NH",
    "SO",
    "DRAWS",
    "DRAW_USABLE",
    # Lines 17-18: the Social group's closed form (search_nb._social_cf), for the card
    # shapes it covers (see below).
    "SCF",
    "SCF_FREE",
    "SCF_NS",
    "SCF_MAXP",
    "SCF_VAL",
    ("SCF_ST", MAX_OPTIONS),
    ("SCF_OPT", MAX_OPTIONS),
    # The deck's exclusion vectors for _social_cf (see below).
    ("XR_STARTS", 3),
    ("XR", 2 * XR_PER_ROW),  # a line of XR_PER_ROW vectors
)
# The search groups' bounds, one 16-bit lane a group (search_nb.NGROUPS; 0 where the kind may
# not join): CF.PUB, 2 columns [io_bars_mw off, on] of the best value (CF.BVI, CF.BVI, CF.BVS,
# CF.BVH), and CF.PWX, 4 columns [io_bars_mw][printed, scored] of the largest counted wine.
# CF.CLS, the kind's behaviour class: the lowest kind whose every other column is the same
# (the same options, flags, requirements: cards a play may swap without changing anything but
# the kinds it lists). The search walks one of each set of such plays (search_nb._walk).
# CF.SCF: SCF_NONE (the kind never joins a Social play), SCF_FREE (one option of points in one
# category, 1 to SCF_MAX_FREE, no Wine, Vintage or requirement), SCF_ENUM (a kind with Wine, a
# Vintage or several options, no requirement, E items of 1 or 2, every field of a state at
# most SCF_MAX_FIELD) or SCF_OTHER (any other: such a hand takes the general walk).
# CF.SCF_FREE, a free kind: its class (category x 5 + points - 1) | I << 8 | H << 16 | 1E
# items << 24 | 2E items << 32 | points << 40. An enumerated kind: its options in CF.SCF_ST
# (packed words: printed W | scored W << 8 | non-Container printed W << 16 | Vintage << 24 |
# I << 32 | H << 40 | 1E items << 48 | 2E items << 56), highest value first (the earlier
# option first among equals), each option's index | its value << 8 in CF.SCF_OPT, their
# number in CF.SCF_NS, the largest printed Wine in CF.SCF_MAXP and the first (largest) value
# in CF.SCF_VAL.
# The deck's exclusion vectors (a table of the deck, not of a kind): every vector of counts
# of free cards per class (CF.SCF_FREE's class, numbered among the deck's classes) losing at
# most SCF_MAX_FREE points, by points lost. Vector v takes two words, in row v // XR_PER_ROW
# from column CF.XR + 2 * (v % XR_PER_ROW): its counts (8-bit lanes) | (cards | points lost
# << 4) << 56, then (class | count << 3) << 6 x i for its nonzero classes | its I, H and E
# items as a packed state word's (bits 32 to 63). CF.XR_STARTS, in row 0: where the vectors
# losing 0, 1, ... SCF_MAX_FREE + 1 points start (9 bits each), or -1 when the deck has no
# such table (more than SCF_MAX_CLASSES classes, or more vectors than XR_PER_ROW x kinds or
# 511): then its hands take the general walk.
# Per search group (search_nb: Intellectual, Intellectual with IO cards, Social, Hedonistic),
# the column of a kind's best value and of its largest counted wine [printed, scored].
CF_GROUP_BV = (CF.BVI, CF.BVI, CF.BVS, CF.BVH)
CF_GROUP_BW = (CF.BWI, CF.BWI, CF.BWS, CF.BWH)
LANE = 16  # bits of one lane of a packed word (the card table's CF.ST, CF.PUB and CF.PWX)
SCF_MAX_CLASSES = 7
SCF_NONE = 0
SCF_FREE = 1
SCF_ENUM = 2
SCF_OTHER = 3
SCF_MAX_FREE = 5
SCF_MAX_FIELD = 15
assert CF.SIZE % 8 == 0 and CF.ST == 80 - ST_BLOCK  # rows of whole lines

# Result array of the search kernel.
MAX_HAND = 60  # positions a result mask holds; larger hands are searched on their first 60
RES = layout(
    "RES", "SCORE", "TYPE",
    "MASK",  # bitmask over hand positions
    "WINE",  # scored wine
    "I", "H", "BONUS", "NCARDS",
    ("PER_CARD", MAX_HAND),  # per-card choice codes
)

# Per-card choice code: option index + 8 * (E points given to Intellectual)
#  + 4096 * (1 if counted as a woman).
CH_E_SHIFT = 8
CH_WOMAN = 4096


# --- the rule array (simsym.model.rules.encode_rules) ---------------------------------------------
RULE = layout(
    "RULE",
    ("WINE_LO", 3),  # per Symposion type
    ("WINE_HI", 3),
    "WINE_SCORED", "NON_CONTAINER", "MAX_VINTAGE", "EITHER_SPLIT", "IO_BARS_MW", "BONUS_EQ",
    "BONUS_ALL", "BONUS_STACKS", "BONUS_WINE_SCORED",
)

# --- game parameters (int64 array ``gp``, simsym.engine.compiled.setup_for) -----------------------
MAX_PLAYERS = 6
GP = layout(
    "GP", "HAND_SIZE", "DECK_RUNS", "TURN_CAP", "DISCARD_LIMIT", "TRADING", "BETWEEN", "UNEVEN",
    "MAX_TRADES", "KOMOS", "MAY_JOIN", "CHAIN", "SYMPOSIA",
    "SEATING",  # SEATING_MIRROR, SEATING_ROTATE or SEATING_RANDOM
    "PLAYERS",
    ("COMP", MAX_PLAYERS),  # one a seat
)
SEATING = codes("SEATING", "MIRROR", "ROTATE", "RANDOM")

# --- strategies: families and the parameter row (simsym.model.strategies.encode_strategy) ---------
FAM = codes("FAM", "GREEDY", "PATIENT", "SPECIALIST", "RANDOM", "LOOKAHEAD", "LEARNED")
# Families from FAM_LOOKAHEAD on decide through the lookahead's game loop (lookahead_nb): the
# search, or the learned model over the same candidates.
SP = layout(
    "SP", "FAMILY", "DISCARD_MAX", "KEEP_THRESHOLD", "WINE_WEIGHT", "TRADE", "TRADE_CANDIDATES",
    "TRADE_INACTIVE", "THRESHOLD", "LATE_RUN", "FAVOURS", "FOCUS", "FALLBACK",
    # lookahead (docs/game-engine.md 6.6): its budget, candidates and rollout policy
    # (POLICY_GREEDY or POLICY_OWN); the row it plays inside rollouts under POLICY_OWN (its
    # greedy twin; every other strategy's own row); and the default greedy row.
    "ITERATIONS", "CANDIDATES", "POLICY", "TWIN", "GREEDY",
    # under POLICY_LEARNED: the row of the learned strategy every seat plays inside rollouts
    "LEARNED",
)
POLICY = codes("POLICY", "GREEDY", "OWN", "LEARNED")

# --- the game state (game_nb.State): its scalars, ``sc`` -------------------------------------
LA_MAX_QUERIES = 16  # an attempt asks each other seat at most twice (even, then uneven)
GS = layout(
    "GS",
    "NPILE",  # cards in the draw pile (its top is pile[GS.NPILE - 1])
    "NDISC",  # cards in the discard pile
    "RUNS",  # deck runs ended
    "NEV",  # events logged
    "MAXEV",  # room for events (0: no log)
    "TURN",
    "AT",  # where the game stands: an AT code below
    "STALLED",
    "TRADES",  # swaps made in the game
    "MADE",  # swaps made in this turn's Symposiarch phase
    "TSTEP",  # trading: 0 the active seat's attempts, s > 0 the attempt of seat a + s next
    "DEAL",
    # A lookahead seat asked to accept a trade (docs 6.6): the trade code stops (LA_PEND = 1)
    # with the query (giver, asked seat, w*, x, x2, greedy's answer) so the engine can
    # search, then re-runs the attempt with the answers given so far (LA_NF of them from
    # LA_F0; LA_Q counts the queries of the current run).
    "LA_PEND", "LA_QI", "LA_QH", "LA_QW", "LA_QX", "LA_QX2", "LA_QG", "LA_Q", "LA_NF",
    ("LA_F0", LA_MAX_QUERIES),
    # The game-quality measures (docs/game-engine.md section 8), kept up to date at the end of
    # every turn (game_nb._quality_turn_end) and turned into the row's ROW.RUN1 .. ROW.WINNER
    # by game_nb.record once the winner is known. Turns count from 1 (the end of turn t is
    # sc[GS.TURN] == t); seats are -1 for "none".
    "Q_LAST",  # the last leader seen (a seat with the strictly highest score), -1 none yet
    "Q_LEAD",  # the leader at the end of the latest turn, -1 none (a tie at the top)
    "Q_SINCE",  # the turn at whose end Q_LEAD's unbroken lead began
    "Q_CHANGES",  # lead changes so far
    "Q_RUN1",  # the first turn at whose end run 1 had ended (-1: not yet)
    "Q_RUN2",  # ... run 2
    ("Q_DEF1", MAX_PLAYERS),  # per seat: best other seat's score minus its own at Q_RUN1
    ("Q_DEF2", MAX_PLAYERS),  # ... at Q_RUN2
    ("Q_DRAMA", MAX_PLAYERS),  # per seat: its largest such deficit at any end of turn (>= 0)
)
# Phase boundaries: the state is "at" the start of one of these (docs/game-engine.md,
# "Rollouts"). A turn goes AT_TURN (end checks, TURN event), AT_AMPHORAE, AT_DISCARDS
# (Symposiarch discards and redraws), AT_TRADING, AT_SYMPOSION, AT_KOMOS, then the next turn.
AT = codes("AT", "DEAL", "TURN", "AMPHORAE", "DISCARDS", "TRADING", "SYMPOSION", "KOMOS",
           "OVER")

# --- events: docs/game-engine.md section 7 ---------------------------------------------------
EV = codes("EV", "TURN", "DRAW", "RUN_END", "DISCARD", "TRADE", "PLAY", "PLAYCARD", "JOIN", "SCORE",
           "END", start=1)
EV_SIZE = 5  # code and four fields
SRC = codes("SRC", "DEAL", "AMPHORAE", "SYMPOSIARCH", "ANDRON")  # DRAW sources
DISCARD = codes("DISCARD", "SYMPOSIARCH", "KOMOS", start=1)  # DISCARD phases

# --- per seat and kind statistics of one game (``cs``, docs section 8) -----------------------
CS = layout("CS", "OPENING", "DRAWN", "RECEIVED", "HELD", "PLAYED", "POINTS", "END",
            "DISCARDED")

# --- the per-game row: these, then P seat scores, P seat strategies, P symposia, 3P points by
# type (seat-major) ----------------------------------------------------------------------------
# The game-quality fields (RUN1 .. WINNER) are defined in docs/game-engine.md section 8 and,
# in plain Python, by simsym.reference.quality.measures. Turns count from 1.
ROW = layout(
    "ROW", "DEAL", "TURNS", "STALLED", "TRADES",
    "RUN1",  # the turn in which run 1 through the deck ended (-1: the game ended first)
    "RUN2",  # ... run 2
    "CHANGES",  # lead changes
    "DECIDED",  # the first turn from whose end on the winner leads at every end of turn
    "DEF1",  # the winner's deficit at the end of turn RUN1 (0 when RUN1 is -1)
    "DEF2",  # ... RUN2
    "DRAMA",  # the winner's largest deficit at any end of turn, at least 0
    "MARGIN",  # the winner's final score minus the best other seat's (0 when shared)
    "WINNERS",  # seats with the top score (1: a sole winner)
    "WIN_BY",  # how the win was decided: a WIN_BY code
    "WINNER",  # the winner's seat (a shared win: the lowest of the tied seats)
    ("FIXED", 0),
)
# How a game's win was decided (ROW.WIN_BY): on points (one seat has the top score), or shared
# (ruling 22: seats tied at the top share the win; the rules have no tie-break step).
WIN_BY = codes("WIN_BY", "POINTS", "SHARED")

# --- the per strategy and kind aggregate of a chunk (``agg``), summed over player-games ------
AGG = layout(
    "AGG",
    "OH_N",  # player-games where the card was in the opening hand
    "OH_W",  # ... and their win units (WIN_UNITS a whole win)
    "GD_N",  # drawn later and not in the opening hand
    "GD_W",
    "GIH_N",  # held at any time
    "GIH_W",
    "PLAYED",  # times played
    "PLAYED_N",  # player-games where played at least once
    "POINTS",  # points of the Symposia it was played in
    "END",  # held at game end (count)
    "DISCARDED",  # discarded unplayed (count)
    "TRADED",  # received by trade (count)
    "HELD_UNPLAYED_N",  # player-games where held but never played ("dead")
)
WIN_UNITS = 60  # divisible by 1..6: tied wins stay whole numbers

# --- a chunk of games played in one call (``State.out``, int64; simsym.engine.compiled.run_chunk) -
# These scalars, then the chunk's per-game rows (games x CK.ROW, a ROW record each) and its
# aggregate (CK.NSTRAT x kinds x AGG.SIZE).
CK = layout(
    "CK",
    "G0",  # the chunk's first game
    "G",  # the game being played (the next one to start)
    "G1",  # one past the chunk's last game
    "SEED",  # the run's seed
    "ROW",  # entries of a row
    "NSTRAT",  # the aggregate's strategies
)

ALL_TYPES = 7  # the type mask of every Symposion type

# --- the per-seat memo of hand searches (``memo``, int64 (P, MEMO_SIZE)) ---------------------
# The hand's version (bumped by every mutation), the seat's own type mask, a lower bound on
# the score of its own best play (0 when unknown; every card removal resets it), then per
# type mask the version its cached search result is for, and the results; then the version
# _may_play's packed sums of the hand are for (game_nb._swap_may_play) and those four sums.
MEMO = layout("MEMO", "VER", "OWN", "LB", ("CVER", 8), ("RES", 8 * RES.SIZE), "PKVER", ("PK", 4))

# --- the trade-candidate bound table (``bt``, int64) -----------------------------------------
# A header, then per (kind, group) a row of BTR.SIZE (the BTR columns): usable in the group, best
# value of a usable wineless option (0 if none), number of usable options, their largest counted
# wine, whether the kind counts as a woman there, its requirements (women, counted wine),
# whether it is Vintage, its largest counted wine when it is not a Container (0 when it is),
# then (counted wine, value) of each usable option. Groups as in the search: Intellectual twice
# (without IO cards; with them but no WC/MW), Social, Hedonistic. The state's ``bscr`` holds per
# group a scratch block of BTS.SIZE (the BTS offsets): the base value, the knapsack's wine cap,
# the women the cards may bring, two knapsack rows (no Vintage card; at most one) and, per
# counted wine of the card to add, each row's best value in the window.
BT = layout(
    "BT",
    "ON",  # 1 when the bound may be used
    ("LO", 4),  # per group
    ("HI", 4),
    ("BONUS", 4),
    ("MAXCW", 4),  # largest counted wine of a usable option of any kind, per group
    ("BONUS_NAE", 4),  # per group the largest bonus of a play that is not all-equal
    "VMODE",  # Vintage in the bound: 0 none may be played, 1 at most one, 2 not bounded
    "NCW",  # counted wine a play must take from non-Container cards (the rule)
    "PK",  # where the packed wine words start (after the rows), or 0 when they are off
    ("TAB", 0),  # the rows start here
)
BT_MAY_AE = 1 << 8  # _bound_may_beat: only an all-equal Social play may beat the floor
BTR = layout(
    "BTR", "JOIN", "NW", "NO", "MCW", "WOMAN", "REQW", "REQWINE", "VINT", "NCW",
    "IO",  # 1 for an IO card (group 1's plays hold one)
    ("OPT", 2 * MAX_OPTIONS),  # (counted wine, value) per usable option
)
BT_WMAX = 64
# The packed wine words of _may_play, per kind after the rows: BTP.MCW and BTP.NCW hold per
# group (16 bits each, group g at bit 16 g) the row's BTR.MCW and BTR.NCW, each capped at what
# _may_play asks of the group (its window's low end, the rule's non-Container wine), so that
# the lanes of a hand's sum cannot overflow; BTP.VINT is 1 for a Vintage kind.
BTP = layout("BTP", "MCW", "NCW", "VINT")
BTP_CAP = 255  # the largest cap the words hold; 257 cards of it fill a lane
BTP_MAXN = 257
BTS = layout(
    "BTS", "BASE", "CAP", "WOMEN",
    ("DP", 4 * (BT_WMAX + 1)),  # 4 rows of BT_WMAX + 1: knapsack without Vintage, with at most
    #                             one, their maxima
)
BT_NEG = -(1 << 40)
