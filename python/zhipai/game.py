"""One deal state for every game: :class:`Game` makes deals, :class:`GameState` plays them.

``zhipai.Game(rules).new_deal(seed=s, index=i)`` is deal ``i`` of ``zhipai.simulate(rules, ...,
seed=s)`` (the same cards, chance events and generator for the built-in policies), and
``Game(rules).new_deal(hands=[...], ...)`` a deal of given cards for analysis. Both return a
:class:`GameState`, the same class for every game (the Rust core's ``GameState`` trait), with
OpenSpiel's verbs and two move vocabularies on the same rules:

* **move text** — ``legal_moves(limit=1000)``, ``apply(move)``, ``is_legal(move)``,
  ``why_illegal(move)``, ``count_legal_moves()``;
* **integer actions** in a fixed space per game — ``num_distinct_actions``, ``legal_actions()``,
  ``legal_action_mask()`` (numpy ``bool`` of shape ``(num_distinct_actions,)``),
  ``apply_action(a)``, ``action_to_string(a)``, ``string_to_action(text)``. Multi-card moves are
  built card by card (actions ``0..53`` add one card of that kind, ``54`` ends a lead or a bid);
  the mask holds exactly the actions that can still be completed to a legal move, and
  ``pending_cards`` shows the move being built. Each game's table is in ``help(zhipai.<game>)``.

Also: ``current_player()`` (``None`` once over), ``is_terminal()``, ``phase``, ``num_players``,
``returns()`` (numpy ``float64``, one per seat; levels for the Shengji family, score for Hong Wu,
Gongzhu and Baohuang; zeros before the end), ``observation(seat)`` (a dict of what the seat
knows), ``history(seat=None)``, ``builtin_move(policy)`` / ``apply_builtin(policy)`` (the built-in
``"random"`` / ``"greedy"`` players, drawing from the deal's generator exactly as ``simulate``),
``result_row()`` (the ``simulate`` columns, ``Game.columns``), ``clone()``, ``to_json()`` and
:meth:`Game.from_json` (a record that replays to the same state; a record cut short or altered
is refused). A ``GameState`` pickles as its record.

Tensors for learning: ``observation_tensor(seat, perfect=False, out=None)`` (numpy ``float32`` of
shape ``zhipai.observation_shape(rules)``, what ``seat`` knows — with ``perfect`` every hand too —
written into ``out`` without allocating when given), ``observation_layout()`` (the fields as
``(name, offset, length, meaning)``; each game's table is in its docs),
``legal_move_features(limit=1000)`` (``uint8`` of shape ``(n_moves, 54)``: the card counts of
``legal_moves(limit)``, in that order, card kinds as ``zhipai.cards_to_array``; a move without
cards — a pass, a bid, a trump choice, ``"end exposure"`` — has a zero row and is told apart by
its index and ``legal_moves(limit)`` text; what is listed where the move set is huge is said
below), ``apply_move_index(i, limit=1000)`` (plays move ``i`` of ``legal_moves(limit)``) and
``resample(seat, seed)`` (a world: every card ``seat`` cannot see redrawn uniformly among the
deals consistent with what it knows; a world has no record). Many deals at once:
``zhipai.VectorEnv`` (``help(zhipai.envs)``).

Move text per game:

* Shengji family (tractor, tractor_jj, eighty_points): ``"pass"``, ``"declare 2H 2H"``,
  ``"bury <cards>"``, ``"play <cards>"`` (with ``chaodi=True`` the phase ``"chaodi"`` after a
  burial takes ``"pass"`` or ``"declare <cards>"`` too).
* Hong Wu (hong_wu): ``"pass"``, ``"bid 60"``, ``"trump S"``, ``"bury <8 cards>"``,
  ``"play <cards>"``.
* Gongzhu: ``"expose QS"``, ``"expose closed QS"``, ``"end exposure"``, a play as cards
  (``"QS"``; two decks: ``"10C 10C"``).
* Baohuang: a play as cards (``"9C 9D 9H"``), ``"pass"``, ``"yield"``, ``"jiefeng"``,
  ``"ascend 9C"``, ``"grab"``, ``"abdicate"``, ``"decline"``, ``"open_guard"``,
  ``"secret_guard"``, ``"open_solo"``, ``"secret_solo"``.

``apply`` reads a move in any letter case and spacing, with its cards in any order; nothing else
is an alias (Gongzhu has no ``"pass"``: ``"end exposure"`` ends one's exposures).

``legal_moves()`` is complete for Gongzhu and every bid, declaration and trump choice, and for
Baohuang up to suits the rules ignore (§C.2: suits matter only for the 登基 card): each play is
listed once with one choice of suits, except that the play with the 登基 card and the same play
without it are both listed when both are legal. In the Shengji family and Hong Wu a burial, a
lead or a follow can have millions of legal choices, so there it lists at most ``limit``:
burials — the first ones in card order; leads — every legal lead (any cards of one effective
suit, throws included) when there are at most ``limit``, else every single-unit lead plus each
suit's whole holding when it is a throw (the random policy's candidates); follows — the first
``limit`` legal follows. ``count_legal_moves()`` counts them all, and ``apply`` accepts any legal
move, listed or not.

Phases (``state.phase``): the trick play is ``"play"`` and the end ``"done"`` in every game;
before the play: Shengji family ``"dealing"``, ``"burying"``, ``"chaodi"``; Hong Wu
``"auction"``, ``"trump"``, ``"kitty"``; Gongzhu ``"exposure"``; Baohuang ``"accession"``,
``"grab_window"``, ``"forced"``, ``"guard_choice"``, ``"solo_choice"``.

Observation (``state.observation(seat)``): only what ``seat`` knows. Keys common to every game:
``game``, ``seat``, ``phase``, ``current_player`` (``None`` once over, or while who is asked is
secret to this seat), ``hand``, ``hand_sizes`` and ``history`` (the moves of the deal as
``(seat, text)`` as this seat saw them: another seat's hidden move shows only its kind, such as
``"bury"``, a secret one — a Shengji pass while dealing, Baohuang's 暗保 — not at all; a failed
throw reads ``"play 8C (failed throw KC KC JC JC 8C)"``). Per game:

* Shengji: ``level``, ``dealer``, ``trump`` (``"S"``/``"H"``/``"D"``/``"C"``/``"NT"``, ``None``
  while dealing), ``declaration``, ``kitty`` (the seat's own burial), ``current_trick``,
  ``points_won``, ``tricks``.
* Hong Wu: ``contract`` (``(dealer, bid)``), ``trump``, ``kitty``, ``current_trick``,
  ``points_won``, ``tricks``.
* Gongzhu: ``exposed``, ``closed`` (the seat's own closed declarations), ``taken``,
  ``current_trick``, ``first_leader``, ``tricks``.
* Baohuang: ``scepter``, ``emperor``, ``dengji_card``, ``guard`` (when known to the seat),
  ``mode``, ``play_to_beat``, ``finishing_order``, ``abdications``, ``redeals``, ``tribute``; the
  guard's and a 4-copy emperor's secret choices read ``"hidden_choice"`` to the others.

Errors: ``IllegalPlayError`` (a move or action not legal now, naming it and the rule; the state is
unchanged), ``InvalidCardError`` / ``InvalidValueError`` (text that is not a move, a bad seat,
action, seed, limit or card list, naming the value; long values are cut to 80 characters).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from zhipai import _core
from zhipai._core import GameState, InvalidValueError, Rules

__all__ = ["Game", "GameState"]

#: The game of each preset (``zhipai presets``).
_GAMES: dict[str, str] = {str(name): str(game) for name, game, _desc, _opts in _core.presets()}


class Game:
    """The deals of one rule set: ``Game(rules)`` with a ``zhipai.Rules`` or a preset name.

    Attributes: ``rules``, ``preset``, ``name`` (the game: ``"shengji"``, ``"hong_wu"``,
    ``"gongzhu"``, ``"baohuang"``), ``num_players``, ``columns`` (result column names, the order
    of ``GameState.result_row()``), ``docs`` (column -> meaning).

    Raises:
        InvalidOptionError: an unknown preset name. InvalidValueError: another type.
    """

    def __init__(self, rules: Rules | str) -> None:
        if isinstance(rules, str):
            rules = _core.rules(rules, None)
        if not isinstance(rules, Rules):
            raise InvalidValueError(f"invalid rules {rules!r}: expected zhipai.Rules or a preset name")
        self.rules = rules
        self.preset: str = rules.preset
        self.name: str = _GAMES[self.preset]
        cols = _core._columns(rules)
        self.columns: list[str] = [c for c, _ in cols]
        self.docs: dict[str, str] = dict(cols)
        self.num_players: int = 5 if self.name == "baohuang" else 4

    def new_deal(
        self,
        seed: int | None = 0,
        index: int = 0,
        *,
        hands: Sequence[str] | None = None,
        kitty: str | None = None,
        level: str | None = None,
        trump: str | None = None,
        dealer: int | None = None,
        previous_places: Sequence[int] | None = None,
    ) -> GameState:
        """A deal at its first decision.

        Without ``hands``: deal ``index`` of a ``simulate`` run seeded ``seed`` (ints in
        ``0..2**64``). With ``hands`` (one card string per seat, seat order): a deal of these
        cards, its chance events and built-in policies drawing from ``seed``; ``kitty`` (games
        with one), ``level`` (Shengji family: a rank, or ``"NT"`` for the joker-only level),
        ``trump`` (Shengji family: a suit letter or ``"NT"``: the declaration is known and the deal
        starts at the burial) and ``dealer`` (the dealer, or the first player) as the game takes
        them; a game refuses, by name, what it cannot take. With ``level`` / ``dealer`` and no
        ``hands``: the cards of deal ``index`` of ``seed`` (as ``simulate`` shuffles them) with
        that level (Shengji family) and dealer (Shengji family), auction opener (Hong Wu) or
        first leader (Gongzhu, who then leads any card, as after a pig-taker, gongzhu.md §A.8).
        ``previous_places`` (Baohuang with ``tribute_between_deals="on"``): the places (1 = 大客
        … 5 = 大拉) per seat the 进贡 is made from (default: seat order, as ``simulate``).

        ``seed=None`` draws a fresh seed (recorded in the deal's ``to_json`` origin), as
        everywhere in zhipai.

        Raises:
            InvalidValueError: a bad seed, index, seat or card list; cards that are not exactly
                the game's pack; a field the game cannot take (named).
            InvalidCardError: a card that cannot be read.
            InvalidOptionError: ``previous_places`` for a game without 进贡.
        """
        if seed is None:
            seed = secrets.randbits(64)
        if hands is None and kitty is None and level is None and trump is None and dealer is None:
            return GameState._new(self.rules, seed, index, previous_places)
        if previous_places is not None:
            raise InvalidValueError(
                f"invalid previous_places {previous_places!r}: only for a simulated deal "
                "(no hands, level, trump or dealer)"
            )
        return GameState._from_setup(self.rules, hands, kitty, level, trump, dealer, seed, index)

    @staticmethod
    def from_json(text: str) -> GameState:
        """Replay a record of ``GameState.to_json()`` to the same state.

        Raises:
            InvalidValueError: text that is not a deal record (naming the field), another format
                version, a recorded move that is not legal at its turn, or a replay that does not
                end in the recorded phase and result (a record cut short or altered).
            InvalidOptionError: an unknown preset or option value.
        """
        return GameState._from_json(text)

    def __repr__(self) -> str:
        return f"Game({self.preset!r})"
