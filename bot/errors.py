"""Refusals a player can read: every error the bot answers with has a translatable text."""

from __future__ import annotations

from typing import ClassVar

from bot.dates import wait_text  # the duration in words, as /daily says it
from bot.i18n import N_, Html, Translator
from bot.store import errors as store_errors
from bot.store.errors import StorageFailure, StoreError
from bot.store.practice import MAX_COMPUTERS
from engine import GameError


class BotError(Exception):
    """A refusal; `text(tr)` is what the player is told (a popup or a reply)."""

    msgid: ClassVar[str] = N_("That is not possible now.")
    chips: ClassVar[tuple[str, ...]] = ()
    """Parameters that are amounts of chips, written "1 chip", "1,250 chips"."""

    def __init__(self, **params: object) -> None:
        super().__init__(self.msgid)
        self.params = params

    def text(self, tr: Translator) -> str:
        if not self.params:
            return tr.gettext(self.msgid)
        values = {name: tr.chips(value) if name in self.chips and isinstance(value, int) else value
                  for name, value in self.params.items()}
        return tr.format(self.msgid, **values)


class Expired(BotError):
    msgid = N_("This button has expired.")


class NotYourTurn(BotError):
    msgid = N_("Not your turn.")


class NotAtTable(BotError):
    msgid = N_("You are not playing at this table.")


class NoTable(BotError):
    msgid = N_("There is no table here. Open one with /newgame.")


class TableExists(BotError):
    msgid = N_("A table is already open here.")


class InTournament(BotError):
    msgid = N_("A tournament that has started takes no top-ups or rebuys, and nobody "
               "leaves it: your stack plays until it is gone.")


class RegistrationClosed(BotError):
    msgid = N_("Registration for this tournament is closed.")


class TournamentBuyIn(BotError):
    msgid = N_("The tournament's buy-in is {buy_in}; you have {balance}.")
    chips = ("buy_in", "balance")


class BadTournament(BotError):
    msgid = N_("Open a tournament with /tournament, or give its buy-in, starting stack and "
               "hands per level: /tournament 100 1000 10 (15m: a level of 15 minutes).")


class GroupOnly(BotError):
    msgid = N_("Tables are played in groups: add me to a group and send /newgame there.")


class NeedPrivateChat(BotError):
    msgid = N_("Open a private chat with me first, so I can send you your cards.")

    def __init__(self, table_id: int) -> None:
        super().__init__()
        self.table_id = table_id


class NotAMember(BotError):
    msgid = N_("Only members of that group can sit at its table.")


class NotAWatcher(BotError):
    msgid = N_("Only members of that group can watch its table.")


class AlreadySeated(BotError):
    msgid = N_("You are already at this table.")


class TableFull(BotError):
    msgid = N_("The table is full.")


DAILY_HINT = N_("Short of chips? /daily gives you free chips once a day.")


WAYS_NOW = N_("A friend can /give you chips, and /daily gives you free chips now.")
WAYS_LATER = N_("A friend can /give you chips, and /daily gives you free chips in {wait}.")


def ways_back(tr: Translator, daily_in: int) -> str:
    """The ways to chips that work now for a player short of them: a friend's gift, and
    the daily bonus now or when it comes."""
    if daily_in <= 0:
        return tr.gettext(WAYS_NOW)
    return tr.format(WAYS_LATER, wait=wait_text(tr, daily_in))


class NotEnoughChips(BotError):
    msgid = N_("You need at least {ante} to sit at this table (you have {balance}).")
    chips = ("ante", "balance")

    def __init__(self, *, ante: int, balance: int, daily_in: int = 0) -> None:
        super().__init__(ante=ante, balance=balance)
        self.daily_in = daily_in
        """Seconds until /daily gives again (0: now)."""

    def text(self, tr: Translator) -> str:
        return super().text(tr) + " " + ways_back(tr, self.daily_in)


class OnlyCreatorOrAdmin(BotError):
    msgid = N_("Only the table's creator or a chat admin can do that.")


class NeedPlayers(BotError):
    msgid = N_("At least two players with chips for the ante are needed.")


class AlreadyStarted(BotError):
    msgid = N_("The game has already started.")


class WaitForHand(BotError):
    msgid = N_("Wait for the hand to end.")


class TopUpAfterHand(BotError):
    msgid = N_("You sit this hand out; chips are added between hands. Send /topup again "
               "when it ends.")


class AlreadyPlaying(BotError):
    msgid = N_("You are playing.")


class TooFewChips(BotError):
    msgid = N_("You are seated, but your stack is below the ante of {ante}: /topup brings "
               "chips from your balance.")
    chips = ("ante",)


class NothingQueued(BotError):
    msgid = N_("Nothing was waiting for your next hand.")


class NoRebuys(BotError):
    msgid = N_("This table has no rebuys. A chat admin can allow them: /settings rebuy 500.")


class NotBroke(BotError):
    msgid = N_("A rebuy is for a player with no chips left: /topup brings more from your "
               "balance.")


class RebuysUsed(BotError):
    msgid = N_("You have taken all {most} rebuys of this table. A friend can /give you "
               "chips.")


class GiveUsage(BotError):
    msgid = N_("Give chips like this: /give @name 100, or reply to the player's message "
               "with /give 100.")


class GiveWhom(BotError):
    msgid = N_("I do not know {name} yet: he needs to write to me once (or reply to his "
               "message with /give 100).")


class GiveSelf(BotError):
    msgid = N_("You cannot give chips to yourself.")


class GiveTooMuch(BotError):
    msgid = N_("You have {balance} to give.")
    chips = ("balance",)


class HouseDay(BotError):
    msgid = N_("The house gives one player only so many chips a day, in all chats "
               "together: {left} more for you today.")
    chips = ("left",)


class HouseDayGiver(BotError):
    msgid = N_("You may give {left} more from the house today, in all your chats together.")
    chips = ("left",)


class ChipCeiling(BotError):
    msgid = N_("You have as many chips as one player may hold: spend some first.")


class AllowanceLeft(BotError):
    msgid = N_("The house may give {left} more today in this chat (a chat admin sets the "
               "house gifts a day in /settings).")
    chips = ("left",)


class NoCardsAway(BotError):
    msgid = N_("You have no cards: you are sitting out. Press I'm back to play from the "
               "next hand.")


class NoCardsShort(BotError):
    msgid = N_("You have no cards: your stack is below the ante, so you sit this hand out. "
               "Add chips with /topup when it ends.")


class NoCardsThisRound(BotError):
    msgid = N_("You have no cards in this round; you play from the next hand.")


class Closing(BotError):
    msgid = N_("This table closes after the hand in progress.")


class BadTopUp(BotError):
    msgid = N_("You can add up to {room} now (your balance is {balance}).")
    chips = ("room", "balance")

    def text(self, tr: Translator) -> str:
        """When the balance, not the table's maximum, is what stops him: the way to /daily."""
        text = super().text(tr)
        room, balance = self.params.get("room"), self.params.get("balance")
        if isinstance(room, int) and isinstance(balance, int) and balance < room:
            text += " " + tr.gettext(DAILY_HINT)
        return text


REBUY_HINT = N_("/rebuy takes {chips} from the house.")


class EmptyBalance(BotError):
    msgid = N_("Your balance is empty: /topup has no chips to bring.")

    def __init__(self, *, rebuy: int | None, daily_in: int) -> None:
        super().__init__()
        self.rebuy = rebuy
        """The table's rebuy, if he may take it now (None: not a way for him)."""
        self.daily_in = daily_in

    def text(self, tr: Translator) -> str:
        parts: list[str] = [tr.gettext(self.msgid)]
        if self.rebuy is not None:
            parts.append(tr.format(REBUY_HINT, chips=tr.chips(self.rebuy)))
        parts.append(ways_back(tr, self.daily_in))
        return " ".join(parts)


class JoinFirst(BotError):
    msgid = N_("You have chips of your own: press Join to sit down with them.")


class NoHand(BotError):
    msgid = N_("No hand is being played right now.")


class BadNumber(BotError):
    msgid = N_("Give a whole number of chips, e.g. /bet 50.")


# Practice tables (bot.practice)


class PrivateOnly(BotError):
    msgid = N_("Practice is played in a private chat with me: open it and send /practice "
               "there.")


class BadCount(BotError):
    msgid = N_("Choose 1 to {most} computer players, e.g. /practice 3.")

    def __init__(self) -> None:
        super().__init__(most=MAX_COMPUTERS)


class PracticeRunning(BotError):
    msgid = N_("You are already at a practice table: play it out, or close it with /endgame.")


class PracticeChips(BotError):
    msgid = N_("At a practice table the chips come with the table: close it with /endgame "
               "and send /practice for a new one.")


class StoreBusy(BotError):
    msgid = N_("I could not save that, so nothing changed. Please try again later.")


class Failed(BotError):
    msgid = N_("Something went wrong on my side; nothing changed. Please try again later.")


_ENGINE: dict[str, str] = {
    "not_your_turn": N_("Not your turn."),
    "not_in_hand": N_("You are not playing this hand."),
    "hand_over": N_("This hand is over."),
    "wrong_phase": N_("You cannot do that now."),
    "bad_amount": N_("The amount must be between {low} and {high}."),
    "cannot_call": N_("There is no bet to call yet: bet or fold."),
    "no_raise": N_("You cannot bet or raise now."),
    "cannot_join_svara": N_("You cannot join this svara."),
    "not_enough_players": N_("At least two players with chips for the ante are needed."),
    "table_full": N_("The table is full."),
    "already_seated": N_("You are already at this table."),
    "not_seated": N_("You are not playing at this table."),
    "hand_running": N_("Wait for the hand to end."),
}


def refusal(err: BaseException) -> BotError:
    """The refusal a player is told for any error a handler did not expect to finish with.

    Storage failures and bugs are answered too (and logged by the caller): nobody is ever
    left without a reply.
    """
    if isinstance(err, BotError):
        return err
    if isinstance(err, GameError):
        return EngineRefusal(err)
    if isinstance(err, StorageFailure):
        return StoreBusy()  # the disk, not the request: nothing changed, try again
    if isinstance(err, StoreError):
        known = store_refusal(err)
        return Failed() if known is None else known
    return Failed()


def store_refusal(err: StoreError) -> BotError | None:
    """The player's words for a refusal of the store (a rule of the table it enforces
    itself), or None for one no player should meet: a bug."""
    if isinstance(err, store_errors.TableFull):
        return TableFull()
    if isinstance(err, store_errors.AlreadySeated):
        return AlreadySeated()
    if isinstance(err, store_errors.TableClosed):
        return NoTable()
    if isinstance(err, store_errors.HandInProgress):
        return WaitForHand()
    if isinstance(err, store_errors.BadAmount) and err.over:
        return ChipCeiling()
    if isinstance(err, store_errors.HouseDayLimit):
        return HouseDayGiver(left=err.left) if err.giver else HouseDay(left=err.left)
    return None


class EngineRefusal(BotError):
    """An engine refusal (`GameError`), in the player's words."""

    def __init__(self, err: GameError) -> None:
        super().__init__()
        self.err = err

    def text(self, tr: Translator) -> str:
        return engine_text(tr, self.err)


def engine_text(tr: Translator, err: GameError) -> Html:
    """A player's words for an engine refusal."""
    msgid = _ENGINE.get(err.code, N_("That is not possible now."))
    values = {k: v for k, v in err.params.items() if f"{{{k}}}" in msgid}
    return tr.format(msgid, **values) if values else Html(tr.gettext(msgid))


class BadSetting(BotError):
    """A /settings change that cannot be applied, and what is accepted instead.

    `params` hold what the admin typed and the bounds, shown as plain text (escaped);
    `why` is a reason of ours (a message id), translated; text without a translation is
    shown as it is, escaped too.
    """

    def __init__(self, message: str, *, why: str | None = None, **params: object) -> None:
        super().__init__(**params)
        self.message = message
        self.why = why

    def text(self, tr: Translator) -> str:
        values = dict(self.params)
        if self.why is not None:
            values["why"] = str(tr.gettext(self.why))
        return tr.format(self.message, **values)


class LanguageOnlyAdmins(BotError):
    msgid = N_("Only the group's admins can change its language.")


class UnknownLanguage(BotError):
    msgid = N_("Choose with the buttons, or type /language and a code: {codes}.")


class NotYourGift(BotError):
    msgid = N_("These buttons are {name}'s: send /give to give chips of your own.")
