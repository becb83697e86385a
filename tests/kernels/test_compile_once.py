"""The search kernel and the game kernel's functions are compiled for one signature only.

numba compiles a function once per distinct tuple of argument types, and a literal argument
(``0``, ``-1``, ``True``) is a type of its own: passing literals into the search would compile
its large kernel once per constant. Its callers pass typed values (``np.int64(...)``). This
test drives every entry point into the search and reads the on-disk cache index, which lists
each signature compiled for the current source.
"""

from dataclasses import replace

import numpy as np
from numba.core import types

from simsym.run import bench
from simsym.core import enums as E
from simsym.core import game_nb as G
from simsym.core import search_nb
from simsym.core.allequal_nb import ae_may_beat_with, ae_prep, all_equal_above_ws
from simsym.core.social_nb import social_above_ws
from simsym.engine.compiled import play_logged, run_chunk, setup_for
from simsym.engine.search import Searcher


def _signatures(dispatcher):
    index = dispatcher._cache._cache_file._load_index()
    return {key[0] for key in index}


def test_every_entry_point_shares_one_compiled_search(base):
    setup = setup_for(base)
    run_chunk(setup, 0, 2)  # the engine: trades, Symposia, Andron draws
    play_logged(setup, 0)  # the logged engine
    searcher = Searcher(base.cards, base.rules)
    searcher.best([0, 1, 2, 40, 41])
    searcher.best([0, 1, 2, 40, 41], types=("social",), required=(0,))
    hands = bench.deck_hands(base, 2, 9, seed=1)
    ws = np.empty(search_nb.workspace_size(9), np.int64)
    res = np.zeros(E.RES.SIZE, np.int64)
    bench._repeat_search_nb(hands, 9, setup.kinds, setup.rules, 1, res, ws)
    bench.rollout_figures(base, games=1, turns=(3,), reps=1)  # rollouts
    tb = setup.table()
    src, dst = G.new_state(tb, 0), G.new_state(tb, 0)
    G.setup(tb, src, 0, base.seed)
    G.play_until(tb, src, 2, E.AT.KOMOS)
    G.rollout_nb(tb, src, dst, np.array(src.seat_strat), src.rng[0])

    # The search is compiled once, for the one signature every caller passes.
    sigs = _signatures(search_nb._best_core)
    assert len(sigs) == 1, f"the search kernel was compiled for {len(sigs)} signatures: {sigs}"
    # Its parts run once or once per group are compiled on their own, once each; what runs
    # at every leaf is inlined into them.
    for f in (search_nb._group_bounds, search_nb._social_cf, search_nb._card_states,
              search_nb._walk, search_nb._write_result):
        assert len(_signatures(f)) == 1, (f.__name__, _signatures(f))
    # (_x_build is inlined too, but tests/kernels/test_search_parts.py calls it from Python, which
    # compiles it on its own into the same cache: its index says nothing about the engine.)
    for f in (search_nb._social_leaf, search_nb._option_states):
        assert len(_signatures(f)) == 0, (f.__name__, _signatures(f))
    for wrapper in (search_nb.best_symposion_ws, search_nb.best_symposion_hint_ws,
                    search_nb.best_score_above_ws, search_nb.best_play_ws,
                    search_nb.best_play_hint_ws):
        assert len(_signatures(wrapper)) <= 1, wrapper.__name__
    # The game kernel: each function compiled on its own, once each. play_until plays a game
    # with the phases inlined (_step), and the engine's chunks of games (run_chunk and the
    # logged games call it from Python: no compiled function above it); step, the same for
    # one phase, serves the lookahead.
    for f in (G.setup, G.deal, G.amphorae_phase, G.record, G.play_until,
              G.discard_and_redraw, G.komos_discard, G.swap,
              G.new_state, G.copy_state, G.set_policy, G.rollout_nb, G._chunk_next,
              G._chunk_record,
              G._hsearch_a, G._search_a, all_equal_above_ws, social_above_ws, ae_prep,
              ae_may_beat_with, G._take_offer, G._may_play, G._bound_prep, G._may_play_rows,
              G.trading):
        assert len(_signatures(f)) == 1, (f.__name__, _signatures(f))
    # Those numba inlines into their callers (NO_RC_INLINE) are not compiled on their own
    # when the engine runs: each compiled level above the search optimises its code again.
    for f in (G._step, G.step, G.end_check, G.choose_symposiarch_discards,
              G.choose_play, G.make_play, G.choose_komos, G.trade_attempt, G._candidates,
              G._offered_card, G._wanted_card, G._candidate_above, G._first_taker,
              G._ask_others, G._uneven_offer, G.accepts, G.answer_query, G._log):
        assert len(_signatures(f)) == 0, (f.__name__, _signatures(f))


def test_the_lookahead_is_one_compiled_function_above_the_game_loop(base):
    """numba optimises again, in every compiled function, the code of everything it calls, and
    copies an inlined function once per call site. The lookahead player is one compiled
    function (run_chunk_lookahead_nb, used by the engine and the logged engine alike) over
    the game kernel's, with its search over candidates (_decide) and its labelling
    (_label) compiled on their own: its other decision functions and game loop are inlined
    into it, and game_nb.step is a call into the compiled play_until, not a second copy of
    the phases."""
    from simsym.core import lookahead_nb as LA
    from simsym.engine.compiled import logged_games
    from simsym.model.strategies import make_strategy

    look = replace(base, strategies=[make_strategy({"family": "lookahead", "iterations": 2}),
                                     make_strategy("greedy")])
    run_chunk(setup_for(look), 0, 1)
    list(logged_games(setup_for(look), 0, 1))
    searched = [sig for sig in _signatures(LA.run_chunk_lookahead_nb)
                if not isinstance(sig[3], types.NoneType)]
    assert len(searched) == 1, searched
    for f in (LA.play_lookahead_nb, LA._apply, LA._determinize, LA._choose, LA._learned,
              LA._symposiarch, LA._symposion, LA._komos, G.step):
        assert len(_signatures(f)) == 0, (f.__name__, _signatures(f))
    assert len(_signatures(LA._decide)) == 1
    assert len(_signatures(G.play_until)) == 1


def test_a_learned_table_plays_the_lookahead_loop_without_the_search(base):
    """A table whose seats search nothing (learned and greedy seats) plays the lookahead loop
    given no rollouts' workspace, the one signature compiled without the search
    (lookahead_nb._searched): a learned table does not compile code it never calls."""
    from simsym.core import lookahead_nb as LA
    from simsym.engine.compiled import logged_games
    from simsym.model.strategies import make_strategy

    learned = replace(base, strategies=[make_strategy("learned"), make_strategy("greedy")])
    setup = setup_for(learned)
    assert setup.lookahead and not setup.searches
    assert setup.rollout_look(setup.table()) is None
    run_chunk(setup, 0, 1)
    list(logged_games(setup, 0, 1))
    unsearched = [sig for sig in _signatures(LA.run_chunk_lookahead_nb)
                  if isinstance(sig[3], types.NoneType)]
    assert len(unsearched) == 1, unsearched
