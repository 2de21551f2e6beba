"""Imperfect information: information sets, CFR, best responses, determinization, IS-MCTS.

* :mod:`~gamesearch.imperfect.tree`        the whole game flattened into arrays, one row per
  history and one per information set (what the fast kernels read);
* :mod:`~gamesearch.imperfect.cfr`         counterfactual regret minimization, CFR and CFR+
  (the readable recursion, and the solver that runs the compiled kernel beside it);
* :mod:`~gamesearch.imperfect.best_response`  exact best responses and exploitability;
* :mod:`~gamesearch.imperfect.double_dummy`   alpha-beta on a fully visible card deal;
* :mod:`~gamesearch.imperfect.determinization` Perfect Information Monte Carlo (the bridge
  program's sample-and-solve player);
* :mod:`~gamesearch.imperfect.ismcts`      information-set MCTS (Cowling, Powley & Whitehouse
  2012);
* :mod:`~gamesearch.imperfect.kernels`     the numba loops behind CFR and best responses;
* :mod:`~gamesearch.imperfect.agent_strategy`  any agent's strategy, read off every
  information set (so its exploitability is exact);
* :mod:`~gamesearch.imperfect.match`       duplicate matches for team card games;
* :mod:`~gamesearch.imperfect.solve`, :mod:`~gamesearch.imperfect.training`,
  :mod:`~gamesearch.imperfect.plot`        ``gamesearch solve`` / ``train cfr`` behind the CLI.

A *strategy* (docs/HIDDEN.md) is a plain dict ``{info_set_key: {action: probability}}`` with
the game's own information-set keys and action strings, so it prints, saves as JSON and is
read back by any other module (the game-theory LP, the web app).
"""
