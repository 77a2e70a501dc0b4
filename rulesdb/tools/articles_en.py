"""Our English for the articles: t = title, s = summary, i = interpretation.

Keys are clause ids. Interpretations record the readings DOMAIN.md decides,
so an auditor sees them next to the text.
"""

A2002 = {
    1: "Equipment", 2: "How the game is played", 3: "Liberties", 4: "Capturing",
    5: "Forbidden points", 6: "No whole-board repetition", 7: "End of the game",
    8: "Living and dead stones", 9: "Counting", 10: "Deciding colours", 11: "Komi",
    12: "Timing", 13: "End of a game in competition", 14: "Adjournment and sealed moves",
    15: "Players' ethics and discipline", 16: "Players' rights and duties", 17: "Play",
    18: "Captures", 19: "Forbidden points", 20: "No recurrence of a whole-board position",
    21: "End of the game", 22: "Timing", 23: "Discipline at the venue", 24: "Warnings",
    25: "Kinds of competition", 26: "Competition systems", 27: "Scoring standings",
    28: "Withdrawal", 29: "Organisation", 30: "Duties of the chief arbiter",
    31: "Duties of the arbiters", 32: "Equipment standards", 33: "Interpretation of these rules",
}

A1988 = {
    1: "Equipment", 2: "How the game is played", 3: "Liberties", 4: "Capturing",
    5: "Forbidden points", 6: "No whole-board repetition", 7: "End of the game",
    8: "Living and dead stones", 9: "Counting", 10: "Deciding colours", 11: "Komi",
    12: "Timing", 13: "End of a game in competition", 14: "Adjournment and sealed moves",
    15: "Discipline at the venue", 16: "Players' rights and duties", 17: "Play",
    18: "Captures", 19: "Forbidden points", 20: "Whole-board repetition", 21: "End of the game",
    22: "Sealed moves", 23: "Timing", 24: "Discipline at the venue", 25: "Other violations",
    26: "Kinds of competition", 27: "Competition systems", 28: "Scoring standings",
    29: "Withdrawal", 30: "Organisation", 31: "Duties of the chief arbiter",
    32: "Duties of the arbiters", 33: "Equipment standards", 34: "Interpretation of these rules",
}

C2002 = {}
C1988 = {}


def _build(ruleset, articles, clauses):
    out = {f"{ruleset}/{n}": {"t": t} for n, t in articles.items()}
    for k, v in clauses.items():
        out.setdefault(f"{ruleset}/{k}", {}).update(v)
    return out


EN = {"cn-2002": _build("cn-2002", A2002, C2002), "cn-1988": _build("cn-1988", A1988, C1988)}
