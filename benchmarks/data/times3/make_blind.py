#!/usr/bin/env python3
"""Build a blind set of chat messages and questions with gold dates (times3).

Written without reading the package's code, tests, docs or the earlier tables.
Every gold date is COMPUTED here from the message's send datetime by the small
calendar helpers below (nothing typed by hand); the message texts that spell out a
date ("thursday 22 january") are rendered from the same computed date, so text and
gold cannot drift apart.  Assertions guard the conventions (e.g. a bare weekday is
never the send weekday, 'next <weekday>' is only used where the two usual readings
agree).

stdlib only, deterministic:  python3 benchmarks/data/times3/make_blind.py
Writes dev.json (a third, by whole chats, stratified by group), test.json (two
thirds) and all.json beside this file.
"""
import datetime as dt
import json
import os
import random
from collections import Counter, OrderedDict

SEED = 20260311
HERE = os.path.dirname(os.path.abspath(__file__))

WD = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}
WD_NAME = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december"]


# ---------------------------------------------------------------- calendar helpers
def D(s):
    return s.date() if isinstance(s, dt.datetime) else s


def plus(s, n):
    return D(s) + dt.timedelta(days=n)


def nx(s, wd):
    """next occurrence of weekday strictly after the send date"""
    d, w = D(s), WD[wd]
    assert d.weekday() != w, ("bare weekday equal to send weekday", d, wd)
    k = (w - d.weekday()) % 7
    return d + dt.timedelta(days=k)


def pv(s, wd):
    """most recent occurrence of weekday strictly before the send date"""
    d, w = D(s), WD[wd]
    assert d.weekday() != w, ("bare weekday equal to send weekday", d, wd)
    k = (d.weekday() - w) % 7
    return d - dt.timedelta(days=k)


def this_(s, wd):
    """'this sat': later in the current Mon-Sun week"""
    d = D(s)
    assert WD[wd] > d.weekday(), ("'this' weekday not later this week", d, wd)
    return nx(s, wd)


def next_(s, wd):
    """'next tues': used only where 'next occurrence' and 'the X of next week' agree
    and the day is at least 5 days away (so nobody reads it as the one after)."""
    d, w = D(s), WD[wd]
    assert w <= d.weekday(), ("'next' weekday readings differ", d, wd)
    k = (w - d.weekday()) % 7 or 7
    assert k >= 5, ("'next' weekday too close", d, wd)
    return d + dt.timedelta(days=k)


def last_(s, wd):
    """'last sat': used only where the most recent one is in the previous week"""
    d, w = D(s), WD[wd]
    assert w >= d.weekday(), ("'last' weekday readings differ", d, wd)
    k = (d.weekday() - w) % 7 or 7
    return d - dt.timedelta(days=k)


def week_start(s):
    d = D(s)
    return d - dt.timedelta(days=d.weekday())


def wd_next_week(s, wd):
    """'thursday next week' = that weekday of the following Mon-Sun week"""
    return week_start(s) + dt.timedelta(days=7 + WD[wd])


def brit_week(s, wd):
    """'thursday week' / 'a week on thursday' = the coming thursday + 7 days"""
    assert D(s).weekday() != WD[wd]
    return nx(s, wd) + dt.timedelta(days=7)


def after_next(s, wd):
    """'saturday after next' = the coming saturday + 7 days (coming one >= 3 days away)"""
    c = nx(s, wd)
    assert (c - D(s)).days >= 3, ("'after next' too close", D(s), wd)
    return c + dt.timedelta(days=7)


def this_wknd(s):
    d = D(s)
    assert d.weekday() <= 4, ("'this weekend' sent at the weekend", d)
    sat = nx(s, "sat")
    return sat, sat + dt.timedelta(days=1)


def last_wknd(s):
    d = D(s)
    assert d.weekday() <= 4, ("'last weekend' sent at the weekend", d)
    sat = pv(s, "sat")
    return sat, sat + dt.timedelta(days=1)


def next_week(s):
    a = week_start(s) + dt.timedelta(days=7)
    return a, a + dt.timedelta(days=6)


def last_week(s):
    a = week_start(s) - dt.timedelta(days=7)
    return a, a + dt.timedelta(days=6)


def month_range(y, m):
    a = dt.date(y, m, 1)
    b = dt.date(y + (m == 12), m % 12 + 1, 1) - dt.timedelta(days=1)
    return a, b


def month_next(s, m):
    """a month name in a future message: next occurrence (not the current month)"""
    d = D(s)
    assert d.month != m
    y = d.year if m > d.month else d.year + 1
    return month_range(y, m)


def month_prev(s, m):
    d = D(s)
    assert d.month != m
    y = d.year if m < d.month else d.year - 1
    return month_range(y, m)


def month_rel(s, k):
    d = D(s)
    n = d.year * 12 + d.month - 1 + k
    return month_range(n // 12, n % 12 + 1)


def dom_next(s, n):
    """'the 20th' (future): next date with that day-of-month strictly after send date"""
    d = D(s) + dt.timedelta(days=1)
    while d.day != n:
        d += dt.timedelta(days=1)
    return d


def dom_prev(s, n):
    d = D(s) - dt.timedelta(days=1)
    while d.day != n:
        d -= dt.timedelta(days=1)
    return d


def dm_next(s, day, month):
    """day+month without year (future): next occurrence strictly after send date"""
    d = D(s)
    c = dt.date(d.year, month, day)
    return c if c > d else dt.date(d.year + 1, month, day)


def dm_prev(s, day, month):
    d = D(s)
    c = dt.date(d.year, month, day)
    return c if c < d else dt.date(d.year - 1, month, day)


def easter(y):
    a = y % 19
    b, c = divmod(y, 100)
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    l = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * l) // 451
    mo, da = divmod(h + l - 7 * m + 114, 31)
    return dt.date(y, mo, da + 1)


def last_monday(y, m):
    d = month_range(y, m)[1]
    return d - dt.timedelta(days=d.weekday())


def nth_weekday(y, m, wd, n):
    d = dt.date(y, m, 1)
    d += dt.timedelta(days=(WD[wd] - d.weekday()) % 7)
    return d + dt.timedelta(days=7 * (n - 1))


def thanksgiving(y):
    return nth_weekday(y, 11, "thu", 4)


def named_next(s, fn):
    """named day, future mention: next occurrence on/after the send date"""
    d = D(s)
    c = fn(d.year)
    return c if c >= d else fn(d.year + 1)


def named_prev(s, fn):
    d = D(s)
    c = fn(d.year)
    return c if c < d else fn(d.year - 1)


def fixed(m, dd):
    return lambda y: dt.date(y, m, dd)


# ---------------------------------------------------------------- gold + text helpers
def day(d, time=None):
    g = OrderedDict([("start", d.isoformat()), ("end", d.isoformat())])
    if time:
        g["time"] = time
    return g


def span(a, b=None, time=None):
    if b is None:
        a, b = a
    assert a <= b
    g = OrderedDict([("start", a.isoformat()), ("end", b.isoformat())])
    if time:
        g["time"] = time
    return g


def retime(g, time):
    g = OrderedDict(g)
    if time:
        g["time"] = time
    else:
        g.pop("time", None)
    return g


def wdm(d, short=False):
    """'thursday 22 january' rendered from a computed date"""
    w = WD_NAME[d.weekday()]
    m = MONTHS[d.month - 1]
    if short:
        return "%s %d %s" % (w[:3], d.day, m[:3])
    return "%s %d %s" % (w, d.day, m)


def ordinal(n):
    if 10 <= n % 100 <= 20:
        suf = "th"
    else:
        suf = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return "%d%s" % (n, suf)


GOLD = {}  # key -> gold of an earlier message (for 'time given earlier in the chat')


class M:
    def __init__(self, at, who, text, group, gold, note="", tag=None, key=None, corrects=None):
        self.at, self.who, self.text, self.group = at, who, text, group
        self.gold, self.note, self.tag, self.key, self.corrects = gold, note, tag, key, corrects


class C:
    def __init__(self, date, *msgs, us=False):
        self.date, self.msgs, self.us = date, msgs, us


class Q:
    def __init__(self, asked, text, gold, note=""):
        self.asked, self.text, self.gold, self.note = asked, text, gold, note


# ================================================================= content
# tags (in `note`): [slang] short forms, [tonight] evening / past-midnight forms,
# [british] British forms, [habitual], [from chat], [US], [weekday+date], [no month],
# [range], [check-in/out].  Group is always the main group.
CHATS = [
    # ------------------------------------------------------------ plan
    C("2024-03-12",
      M("18:40", "Jess", "lunch tmrw? there's a new ramen place by the station", "plan",
        lambda s: day(plus(s, 1)), "tmrw = send date + 1", tag="slang"),
      M("18:52", "Omar", "can't do tmrw, thurs any good?", "plan",
        lambda s: day(nx(s, "thu")), "gold = the day proposed (thurs), not the declined tmrw", tag="slang"),
      M("19:01", "Jess", "thurs works, 12:30?", "plan",
        lambda s: day(nx(s, "thu"), "12:30"), "", tag="slang"),
      M("21:00", "Omar", "loved the gig on saturday btw, shall we get tickets for the one on 5 april?", "mixed",
        lambda s: day(dm_next(s, 5, 4)), "about the future gig (5 april); saturday's gig is background")),
    C("2023-05-24",
      M("10:15", "Dan", "free sat? thinking of a hike if it stays dry", "plan",
        lambda s: day(nx(s, "sat")), "", tag="slang"),
      M("10:40", "Harriet", "I'm around sat, not sun", "plan",
        lambda s: day(nx(s, "sat")), "available day = sat; sun is ruled out", tag="slang")),
    C("2024-09-05",
      M("08:20", "Ana", "can't do fri, the boiler man is coming between 8 and 12", "plan",
        lambda s: day(nx(s, "fri")), "the unavailable day (a range of hours, no single time)", tag="slang")),
    C("2025-01-15",
      M("21:05", "Mo", "2moro night? pizza and the football at mine", "plan",
        lambda s: day(plus(s, 1)), "2moro night = send date + 1", tag="slang")),
    C("2025-06-02",
      M("13:30", "Lou", "anyone around this wknd for a bbq in the park", "plan",
        lambda s: span(this_wknd(s)), "this wknd (sent Monday) = coming Sat-Sun", tag="slang")),
    C("2026-01-13",
      M("17:45", "Priya", lambda s: "are you free %s? it's Tom's leaving do" % wdm(nx(s, "thu") + dt.timedelta(7)),
        "plan", lambda s: day(nx(s, "thu") + dt.timedelta(7)), "weekday with a date", tag="weekday+date"),
      M("17:58", "Cal", "should be, what time's Tom's do?", "plan",
        lambda s: day(nx(s, "thu") + dt.timedelta(7)), "date from Priya's earlier message", tag="from chat")),
    C("2024-11-19",
      M("09:10", "Bea", "I'm off thursday next week if you want to do the christmas market", "plan",
        lambda s: day(wd_next_week(s, "thu")), "off = day off work; thursday of the following week")),
    C("2023-07-13",
      M("12:00", "Raj", "shall we book the tennis court for the 20th?", "plan",
        lambda s: day(dom_next(s, 20)), "the 20th with no month = next 20th", tag="no month")),
    C("2025-10-07",
      M("19:20", "Kim", "I go to pottery every tuesday so weeknights are tricky", "plan",
        None, "habitual, no single occurrence meant", tag="habitual"),
      M("19:26", "Ali", "no worries, what about sun afternoon?", "plan",
        lambda s: day(nx(s, "sun")), "", tag="slang")),
    C("2026-03-19",
      M("08:05", "Kim", "swim club is every sat morning, want to come along this sat?", "plan",
        lambda s: day(this_(s, "sat")), "habit mentioned, but 'this sat' is a single occurrence", tag="habitual")),
    C("2025-07-24",
      M("20:30", "Nia", lambda s: "cottage booked!! check in %s, check out %s" % (
          wdm(nx(s, "fri") + dt.timedelta(14), True), wdm(nx(s, "fri") + dt.timedelta(17), True)),
        "plan", lambda s: span(nx(s, "fri") + dt.timedelta(14), nx(s, "fri") + dt.timedelta(17)),
        "stay = check-in day to check-out day inclusive", tag="check-in/out"),
      M("20:41", "Ro", "amazing, I'll take the friday off", "plan",
        lambda s: day(nx(s, "fri") + dt.timedelta(14)), "the friday = check-in day from Nia's message", tag="from chat")),
    C("2024-06-14",
      M("11:00", "Sam", "quiz at the Anchor is tues at 8, we need 6 for a team", "plan",
        lambda s: day(nx(s, "tue"), "20:00"), "", tag="slang", key="quiz"),
      M("11:20", "Leo", "I'm in for the quiz, can bring Hattie too", "plan",
        lambda s: GOLD["quiz"], "date and time from Sam's earlier message", tag="from chat")),
    C("2023-10-19",
      M("16:30", "Zara", "cinema tonight? there's an 8:40 showing", "plan",
        lambda s: day(D(s), "20:40"), "", tag="tonight")),
    C("2025-11-12",
      M("09:45", "Eve", "can you ring me this evening? any time after 6", "plan",
        lambda s: day(D(s)), "no single clock time ('after 6')", tag="tonight")),
    C("2024-11-30",
      M("23:15", "Finn", "taxi's booked for 2, meet outside the club", "plan",
        lambda s: day(plus(s, 1), "02:00"), "2 at 23:15 = 02:00 the next day (crosses month end)", tag="tonight")),
    C("2026-04-30",
      M("14:10", "Ivy", "let's catch up in 2 weeks once this deadline's done", "plan",
        lambda s: day(plus(s, 14)), "in 2 weeks = send date + 14")),
    C("2023-02-28",
      M("07:50", "Pete", "the plumber's coming the day after tmrw, can you be in?", "plan",
        lambda s: day(plus(s, 2)), "day after tmrw = +2 (crosses month end)", tag="slang"),
      M("12:00", "Pete", "the viewing is now the 3rd at 11", "reschedule",
        lambda s: day(dom_next(s, 3), "11:00"), "the 3rd = next 3rd (March)", tag="no month")),
    C("2024-01-08",
      M("20:00", "Gail", "how about the saturday after next for the escape room?", "plan",
        lambda s: day(after_next(s, "sat")), "coming saturday + 7", tag="british")),
    C("2025-03-04",
      M("12:40", "Theo", "my birthday drinks are thursday week, keep it free", "plan",
        lambda s: day(brit_week(s, "thu")), "thursday week = coming thursday + 7", tag="british")),
    C("2023-09-26",
      M("18:00", "Rosa", "my parents are visiting a week on friday", "plan",
        lambda s: day(brit_week(s, "fri")), "a week on friday = coming friday + 7", tag="british"),
      M("18:05", "Rosa", "we ate 2/3 of the cake you left already", "distractor",
        None, "2/3 is a fraction")),
    C("2026-06-11",
      M("10:00", "Jon", "can't do this weekend, the weekend after?", "plan",
        lambda s: span(*[d + dt.timedelta(7) for d in this_wknd(s)]),
        "the weekend after (this weekend) = coming weekend + 7", tag="british")),
    C("2025-08-11",
      M("15:00", "Mel", "let's get a coffee sometime next week", "plan",
        lambda s: span(next_week(s)), "next week = following Mon-Sun")),
    C("2023-01-31",
      M("22:00", "Fran", "we should do a ski trip in march", "plan",
        lambda s: span(month_next(s, 3)), "month name = whole month")),
    C("2024-05-09",
      M("09:00", "Deb", "next tues for the dentist? they have 9:15 free", "plan",
        lambda s: day(next_(s, "tue"), "09:15"), "sent thursday: next tues = 5 days on (both readings agree)", tag="slang"),
      M("09:02", "Deb", "I may be a bit late to yours, traffic's awful", "distractor",
        None, "'may' is a modal")),
    C("2026-02-27",
      M("17:00", "Ola", "this sat is the only day I can do", "plan",
        lambda s: day(this_(s, "sat")), "sent friday", tag="slang")),
    C("2023-08-21",
      M("07:30", "Bex", "gym weds after work?", "plan",
        lambda s: day(nx(s, "wed")), "", tag="slang"),
      M("12:00", "Bex", "remember the leak on friday? the roofer's finally coming weds 8am", "mixed",
        lambda s: day(nx(s, "wed"), "08:00"), "about the roofer's visit (weds); friday's leak is background", tag="slang")),
    C("2025-09-17",
      M("19:00", "Will", "book club thu at 7?", "plan",
        lambda s: day(nx(s, "thu"), "19:00"), "", tag="slang")),
    C("2024-09-30",
      M("12:00", "Nadia", "the conference is in nov, want to share a room?", "plan",
        lambda s: span(month_next(s, 11)), "", tag="slang")),
    C("2026-07-16",
      M("11:30", "Hugo", "we're thinking of Lisbon in sept, you two fancy it?", "plan",
        lambda s: span(month_next(s, 9)), "", tag="slang")),
    C("2023-12-18",
      M("22:30", "Abi", "can you drop the keys round tmrw morning?", "plan",
        lambda s: day(plus(s, 1)), "", tag="slang")),
    C("2026-12-07",
      M("08:30", "Jude", lambda s: "are you about on %s for the team lunch?" % wdm(dom_next(s, 18)), "plan",
        lambda s: day(dom_next(s, 18)), "weekday with a date", tag="weekday+date")),
    C("2025-12-22",
      M("10:30", "Lola", "party's on the 3rd, hope you can make it", "plan",
        lambda s: day(dom_next(s, 3)), "the 3rd = next 3rd (crosses the year end)", tag="no month")),
    C("2024-07-02",
      M("13:00", "Kit", "I'm free mon and tues next week if you need a hand moving", "plan",
        lambda s: span(next_week(s)[0], next_week(s)[0] + dt.timedelta(1)), "two adjacent free days = a range", tag="slang")),
    C("2023-12-31",
      M("12:00", "Ines", "happy almost new year! coffee on tues?", "plan",
        lambda s: day(nx(s, "tue")), "sent sunday 31 dec: tues is in the new year", tag="slang")),
    C("2026-09-30",
      M("18:20", "Mags", "we've got choir every thursday night so count us out of quiz nights", "plan",
        None, "habitual, no single occurrence meant", tag="habitual")),
    C("2026-10-08",
      M("09:30", "Tess", "are you coming to the fireworks? they're on sat at the rugby club", "plan",
        lambda s: day(nx(s, "sat")), "", tag="slang")),
    C("2025-05-14",
      M("16:10", "Ed", "would friday at 4 suit for the viewing?", "plan",
        lambda s: day(nx(s, "fri"), "16:00")),
      M("16:30", "Ed", "festival this weekend, still on?", "plan",
        lambda s: span(this_wknd(s)), "", key="fest"),
      M("16:45", "Suze", "nope, pushed back to the weekend after", "reschedule",
        lambda s: span(*[d + dt.timedelta(7) for d in this_wknd(s)]),
        "the weekend after the one Ed named (this weekend + 7)", tag="british")),
    C("2023-11-15",
      M("11:00", "Rhys", "I'm around all next week if you want to borrow the drill", "plan",
        lambda s: span(next_week(s)))),
    C("2024-10-23",
      M("20:45", "Cass", "tmrw night is bowling, lane's booked for 7.30", "plan",
        lambda s: day(plus(s, 1), "19:30"), "", tag="slang")),
    C("2025-10-31",
      M("12:00", "Ella", "my gig is on the 14th! doors at 7", "plan",
        lambda s: day(dom_next(s, 14), "19:00"), "the 14th = next 14th (November)", tag="no month", key="gig"),
      M("12:30", "Fred", "I'll get us tickets for Ella's gig", "plan",
        lambda s: GOLD["gig"], "date/time from Ella's earlier message", tag="from chat"),
      M("20:00", "Fred", "started watching Wednesday, it's brilliant", "distractor",
        None, "Wednesday = the TV show")),
    C("2026-05-20",
      M("09:00", "Ben", "walk on sunday if it's sunny?", "plan",
        lambda s: day(nx(s, "sun")))),
    C("2024-02-29",
      M("18:00", "Lucy", "drinks tmrw to celebrate the end of the month?", "plan",
        lambda s: day(plus(s, 1)), "sent 29 feb (leap year): tmrw = 1 march", tag="slang")),
    C("2025-02-28",
      M("19:00", "Gus", "brunch on sun?", "plan",
        lambda s: day(nx(s, "sun")), "", tag="slang"),
      M("19:10", "Sal", "sun's good, 11ish?", "plan",
        lambda s: day(nx(s, "sun")), "no exact time ('11ish')", tag="slang")),

    # ------------------------------------------------------------ reschedule
    C("2023-03-17",
      M("09:30", "Liv", "the eye test got moved to thurs", "reschedule",
        lambda s: day(nx(s, "thu")), "", tag="slang")),
    C("2024-03-25",
      M("11:00", "Coach Dave", "training's pushed back to weds this week", "reschedule",
        lambda s: day(nx(s, "wed")), "", tag="slang")),
    C("2025-03-31",
      M("17:20", "Jas", "bumped the call with the bank to fri at 3", "reschedule",
        lambda s: day(nx(s, "fri"), "15:00"), "crosses month end", tag="slang")),
    C("2023-08-31",
      M("10:00", "Mia", "school changed the open evening to the 20th", "reschedule",
        lambda s: day(dom_next(s, 20)), "the 20th = next 20th (september)", tag="no month")),
    C("2024-04-30",
      M("08:00", "Uma", "yoga's now on weds this week", "reschedule",
        lambda s: day(nx(s, "wed")), "crosses month end", tag="slang")),
    C("2025-06-30",
      M("12:15", "Oli", lambda s: "the dentist moved me to %s" % wdm(nx(s, "tue") + dt.timedelta(7)), "reschedule",
        lambda s: day(nx(s, "tue") + dt.timedelta(7)), "weekday with a date", tag="weekday+date")),
    C("2023-04-06",
      M("19:00", "Nina", "dinner's sat at 7 at Luca's", "plan",
        lambda s: day(nx(s, "sat"), "19:00"), "", tag="slang", key="luca"),
      M("2023-04-07 09:00", "Paul", "Luca's rang me, they've pushed us to 8", "reschedule",
        lambda s: retime(GOLD["luca"], "20:00"), "date from Nina's message, new time 8pm", tag="from chat"),
      M("2023-04-07 12:30", "Nina", "we went to Kaspa's last fri, want to go again after dinner sat?", "mixed",
        lambda s: day(nx(s, "sat")), "about the coming sat; last fri is background", tag="slang")),
    C("2024-07-31",
      M("16:00", "Jo", "my interview's been postponed to next month", "reschedule",
        lambda s: span(month_rel(s, 1)), "next month (crosses month end)")),
    C("2025-01-31",
      M("13:00", "Ash", lambda s: "the boiler service is now %s" % wdm(nx(s, "mon") + dt.timedelta(7), True),
        "reschedule", lambda s: day(nx(s, "mon") + dt.timedelta(7)), "weekday with a date", tag="weekday+date")),
    C("2026-01-31",
      M("10:00", "Coach", "match is off today, rearranged for next sat", "reschedule",
        lambda s: day(next_(s, "sat")), "sent saturday: next sat = +7", tag="slang")),
    C("2024-12-30",
      M("09:00", "Hana", "the landlord's inspection got bumped to the 2nd", "reschedule",
        lambda s: day(dom_next(s, 2)), "the 2nd = 2 january (crosses the year end)", tag="no month")),
    C("2023-06-30",
      M("14:00", "Wes", "flight's been moved to tomorrow morning, 6am", "reschedule",
        lambda s: day(plus(s, 1), "06:00"), "crosses month end")),
    C("2025-08-31",
      M("20:00", "Meera", "the away day has been moved to thursday week", "reschedule",
        lambda s: day(brit_week(s, "thu")), "sent sunday: coming thursday + 7", tag="british")),
    C("2026-08-26",
      M("11:30", "Tom", "haircut's pushed back a week to the 2nd", "reschedule",
        lambda s: day(dom_next(s, 2)), "the 2nd = 2 september", tag="no month")),
    C("2023-11-30",
      M("15:00", "Ros", lambda s: "work do is now on fri %s not the 1st" % ordinal((nx(s, "fri") + dt.timedelta(7)).day),
        "reschedule", lambda s: day(nx(s, "fri") + dt.timedelta(7)), "new date = fri the 8th; the 1st is the old date",
        tag="slang"),
      M("19:00", "Ros", "the pub quiz last week was such a laugh, same again next thurs?", "mixed",
        lambda s: day(next_(s, "thu")), "about the next quiz (sent thursday: +7); last week is background", tag="slang")),
    C("2024-09-30",
      M("18:00", "Amir", "parents evening is thurs 6pm", "plan",
        lambda s: day(nx(s, "thu"), "18:00"), "", tag="slang", key="pe"),
      M("2024-10-01 08:30", "Lena", "school texted, parents evening is now 5:30", "reschedule",
        lambda s: retime(GOLD["pe"], "17:30"), "date from Amir's message, new time", tag="from chat"),
      M("2024-10-01 21:00", "Lena", "saw the musical on saturday that you're going to next month - you'll love it",
        "mixed", lambda s: day(pv(s, "sat")), "about seeing it on saturday (past); next month is the other person's plan")),
    C("2025-04-10",
      M("12:00", "Kev", "they've shifted the team lunch to monday", "reschedule",
        lambda s: day(nx(s, "mon")))),
    C("2026-03-19",
      M("19:30", "Aoife", "the gig got rescheduled to 14 november", "reschedule",
        lambda s: day(dm_next(s, 14, 11))),
      M("19:40", "Aoife", "last time we went to the Italian was march last year, book it for fri?", "mixed",
        lambda s: day(nx(s, "fri")), "about booking fri; march last year is background", tag="slang")),
    C("2023-01-10",
      M("17:00", "Jack", "swapped shifts so I'm working sat now instead", "reschedule",
        lambda s: day(nx(s, "sat")), "", tag="slang")),
    C("2024-05-31",
      M("09:00", "Pip", "MOT moved from tues to weds", "reschedule",
        lambda s: day(nx(s, "wed")), "gold = new day (weds)", tag="slang")),
    C("2025-11-30",
      M("21:00", "Dot", "the carol concert moved to the 12th", "reschedule",
        lambda s: day(dom_next(s, 12)), "the 12th = 12 december", tag="no month"),
      M("21:10", "Dot", "the lights at the garden centre were lovely yesterday, take the kids on sat?", "mixed",
        lambda s: day(nx(s, "sat")), "about sat (sent sunday: the coming saturday); yesterday is background",
        tag="slang")),
    C("2026-06-30",
      M("10:00", "Yas", "the sofa delivery's been brought forward to tmrw", "reschedule",
        lambda s: day(plus(s, 1)), "crosses month end", tag="slang"),
      M("20:00", "Yas", "since we missed each other last week, dinner thurs?", "mixed",
        lambda s: day(nx(s, "thu")), "about thurs; last week is background", tag="slang")),
    C("2023-12-18",
      M("09:00", "Ian", "office party's been pushed to january", "reschedule",
        lambda s: span(month_next(s, 1)))),
    C("2024-11-19",
      M("14:00", "Vic", "the 1:1 got moved to thu 9am", "reschedule",
        lambda s: day(nx(s, "thu"), "09:00"), "", tag="slang")),
    C("2025-07-24",
      M("08:45", "Lin", "physio bumped me to next tues, 11:20", "reschedule",
        lambda s: day(next_(s, "tue"), "11:20"), "sent thursday: next tues = +5", tag="slang")),
    C("2026-12-31",
      M("11:00", "Gran", "new year lunch at mine is now on the 2nd", "reschedule",
        lambda s: day(dom_next(s, 2)), "the 2nd = 2 january of the new year", tag="no month"),
      M("17:00", "Bryn", "after last year's rubbish nye we're staying in tonight", "mixed",
        lambda s: day(D(s)), "about tonight (31 dec); last year's nye is background", tag="tonight")),
    C("2023-10-19",
      M("10:00", "Fay", "the wedding tasting got moved to a week on saturday", "reschedule",
        lambda s: day(brit_week(s, "sat")), "coming saturday + 7", tag="british")),
    C("2024-01-31",
      M("13:00", "Nick", "car's booked in for the 6th now instead", "reschedule",
        lambda s: day(dom_next(s, 6)), "the 6th = 6 february", tag="no month")),
    C("2025-10-07",
      M("08:00", "Rae", "they pushed the exam back to the 21st", "reschedule",
        lambda s: day(dom_next(s, 21)), "", tag="no month"),
      M("12:00", "Rae", "Mum came out of hospital on friday, could you visit her sat?", "mixed",
        lambda s: day(nx(s, "sat")), "about the visit sat; friday is background", tag="slang")),
    C("2026-02-27",
      M("12:00", "Viv", lambda s: "coach trip moved to sat %d march" % (nx(s, "sat") + dt.timedelta(14)).day, "reschedule",
        lambda s: day(nx(s, "sat") + dt.timedelta(14)), "weekday with a date", tag="weekday+date")),
    C("2024-08-14",
      M("19:00", "Sid", "match moved to tmrw at 6", "reschedule",
        lambda s: day(plus(s, 1), "18:00"), "", tag="slang")),
    C("2026-05-20",
      M("17:00", "Ana", "pushed my dentist to thurs week", "reschedule",
        lambda s: day(brit_week(s, "thu")), "coming thursday + 7", tag="british")),
    C("2025-12-22",
      M("09:00", "Ade", "boiler engineer rebooked for the 29th", "reschedule",
        lambda s: day(dom_next(s, 29)), "", tag="no month")),
    C("2026-10-08",
      M("15:00", "Lydia", "book club moved to wednesday", "reschedule",
        lambda s: day(nx(s, "wed")))),
    C("2024-02-29",
      M("10:00", "Hal", "completion's pushed to 2 weeks today", "reschedule",
        lambda s: day(plus(s, 14)), "2 weeks today = send date + 14", tag="british")),
    C("2023-07-13",
      M("18:00", "Kat", "they changed the bbq to sunday", "reschedule",
        lambda s: day(nx(s, "sun")))),
    C("2025-09-17",
      M("08:10", "Cam", "the 10k got moved to sun 28th", "reschedule",
        lambda s: day(dom_next(s, 28)), "sun 28th = 28 september (a sunday)", tag="slang")),
    C("2026-11-18",
      M("12:00", "Ned", "plasterer can't come mon now, he's doing fri instead", "reschedule",
        lambda s: day(nx(s, "fri")), "new day = coming fri; mon is the old day", tag="slang")),
    C("2023-09-26",
      M("10:00", "Sue", "choir concert was supposed to be the 30th but it's now the 7th", "reschedule",
        lambda s: day(dom_next(s, 7)), "gold = new date, the 7th (october)", tag="no month")),
    C("2025-01-15",
      M("09:00", "Otto", "plumber can't make thurs, now tuesday", "reschedule",
        lambda s: day(nx(s, "tue")), "new day = coming tuesday", tag="slang")),

    # ------------------------------------------------------------ report
    C("2023-01-10",
      M("09:00", "Mike", "went to the dentist on monday, two fillings 😩", "report",
        lambda s: day(pv(s, "mon")))),
    C("2024-03-25",
      M("20:00", "Cleo", "saw her last wknd at the market, she looks well", "report",
        lambda s: span(last_wknd(s)), "sent monday: the weekend just gone", tag="slang")),
    C("2025-03-04",
      M("08:30", "Dee", "had my booster 2 weeks ago and my arm still aches", "report",
        lambda s: day(plus(s, -14)), "2 weeks ago = send date - 14")),
    C("2023-05-24",
      M("22:00", "Lars", "got back from Porto yesterday, knackered", "report",
        lambda s: day(plus(s, -1)))),
    C("2026-01-13",
      M("07:40", "Beth", "didn't sleep last night, the neighbours had a party", "report",
        lambda s: day(plus(s, -1)), "last night (sent morning) = the evening of the day before", tag="tonight")),
    C("2024-09-05",
      M("13:00", "Ros", "we finally tried that thai place on the 1st", "report",
        lambda s: day(dom_prev(s, 1)), "", tag="no month")),
    C("2023-09-26",
      M("18:30", "Will", "spent most of august in Wales", "report",
        lambda s: span(month_prev(s, 8)))),
    C("2025-06-02",
      M("12:00", "Zoe", "bumped into Tom on sat, he's moving to Leeds", "report",
        lambda s: day(pv(s, "sat")), "crosses month end", tag="slang")),
    C("2024-12-20",
      M("17:00", "Ria", "the heating packed in on tuesday, freezing all week", "report",
        lambda s: day(pv(s, "tue")))),
    C("2026-04-02",
      M("10:00", "Ben", "ran my first half marathon last month", "report",
        lambda s: span(month_rel(s, -1)))),
    C("2023-11-15",
      M("19:00", "Gem", "had the interview the day before yesterday, still no news", "report",
        lambda s: day(plus(s, -2)))),
    C("2024-07-02",
      M("09:30", "Jas", "sent off the passport form a week ago today", "report",
        lambda s: day(plus(s, -7)), "a week ago today = -7")),
    C("2025-09-17",
      M("20:00", "Kay", "I was off sick all last week", "report",
        lambda s: span(last_week(s)))),
    C("2025-01-15",
      M("08:15", "Rob", "the car failed its MOT 10 days ago, still waiting on parts", "report",
        lambda s: day(plus(s, -10)))),
    C("2026-06-11",
      M("18:00", "Tam", "went climbing this morning, arms are dead", "report",
        lambda s: day(D(s)))),
    C("2023-12-31",
      M("15:00", "Ailsa", "walked up Arthur's Seat on wed, still buzzing", "report",
        lambda s: day(pv(s, "wed")), "", tag="slang")),
    C("2024-05-31",
      M("21:00", "Hen", "we did the big shop thurs so the fridge is full", "report",
        lambda s: day(pv(s, "thu")), "", tag="slang")),
    C("2026-09-30",
      M("12:00", "Maz", "got the keys on monday!!", "report",
        lambda s: day(pv(s, "mon")))),
    C("2024-10-23",
      M("10:00", "Dev", "met the new manager friday just gone, seems ok", "report",
        lambda s: day(pv(s, "fri")), "friday just gone = most recent friday", tag="british")),
    C("2025-08-11",
      M("08:00", "Fi", "at the weekend we finally painted the hall", "report",
        lambda s: span(last_wknd(s)), "past tense, sent monday", tag="british"),
      M("20:00", "Fi", "the kids' last day at camp was friday, so we're free for the beach thurs", "mixed",
        lambda s: day(nx(s, "thu")), "about the beach thurs; friday is background", tag="slang")),
    C("2023-08-21",
      M("19:30", "Nat", "saw Priya on the 15th, she says hi", "report",
        lambda s: day(dom_prev(s, 15)), "", tag="no month")),
    C("2026-07-16",
      M("11:00", "Jen", "had the scan earlier today, all fine", "report",
        lambda s: day(D(s)))),
    C("2024-01-08",
      M("10:00", "Pat", "we used to go to that cafe every sunday", "report",
        None, "habitual, no single occurrence meant", tag="habitual"),
      M("18:00", "Pat", "met Jo on saturday, she wants to do dinner thursday next week, you in?", "mixed",
        lambda s: day(wd_next_week(s, "thu")), "about the dinner (thursday next week); saturday is background")),
    C("2025-10-31",
      M("18:00", "Ida", "went to the osteopath weds, much better now", "report",
        lambda s: day(pv(s, "wed")), "", tag="slang")),
    C("2026-11-18",
      M("09:00", "Rav", "the parcel came yesterday in the end", "report",
        lambda s: day(plus(s, -1)))),
    C("2023-04-30",
      M("19:00", "Moll", "got back from the coast on friday", "report",
        lambda s: day(pv(s, "fri")), "sent sunday")),
    C("2024-11-30",
      M("12:00", "Jay", "ran into Mel 3 days ago at the station", "report",
        lambda s: day(plus(s, -3)))),
    C("2025-02-28",
      M("22:00", "Lee", "we had the house valued on the 20th", "report",
        lambda s: day(dom_prev(s, 20)), "", tag="no month")),
    C("2023-06-30",
      M("16:00", "Cat", "my sister visited in may, first time in ages", "report",
        lambda s: span(month_prev(s, 5)))),
    C("2026-03-19",
      M("21:00", "Seb", "Sam came round last sat with the baby", "report",
        lambda s: day(last_(s, "sat")), "sent thursday: the saturday of last week", tag="slang")),
    C("2024-08-14",
      M("08:00", "Anya", "the kids started swimming lessons last week", "report",
        lambda s: span(last_week(s)))),
    C("2025-11-12",
      M("13:00", "Ezra", "finally saw the doctor this morning", "report",
        lambda s: day(D(s)))),
    C("2026-12-07",
      M("19:00", "Noor", "went to Gemma's 40th on saturday, great night", "report",
        lambda s: day(pv(s, "sat")))),
    C("2023-03-17",
      M("12:00", "Vince", "paid the deposit tuesday so it's ours", "report",
        lambda s: day(pv(s, "tue")))),
    C("2025-04-10",
      M("20:00", "Ty", "saw the new Bond film last night, so good", "report",
        lambda s: day(plus(s, -1)), "", tag="tonight")),
    C("2024-04-30",
      M("19:00", "Mina", "had my appraisal on the 25th, went fine", "report",
        lambda s: day(dom_prev(s, 25)), "", tag="no month")),
    C("2026-02-27",
      M("08:00", "Lou", "we went to the ballet a fortnight ago", "report",
        lambda s: day(plus(s, -14)), "a fortnight ago = -14", tag="british")),
    C("2023-10-19",
      M("22:00", "Jem", "was at mum's all weekend so missed your call", "report",
        lambda s: span(last_wknd(s)), "past tense: the most recent weekend")),
    C("2025-07-24",
      M("07:00", "Ken", "I was in Leeds monday and tuesday", "report",
        lambda s: span(pv(s, "mon"), pv(s, "tue")), "two adjacent days = a range", tag="range")),
    C("2024-06-14",
      M("09:00", "Sofia", "the window man came on the 10th and fixed it", "report",
        lambda s: day(dom_prev(s, 10)), "", tag="no month")),
    C("2026-05-20",
      M("22:30", "Zak", "went to 5-a-side last thurs, still limping", "report",
        lambda s: day(last_(s, "thu")), "sent wednesday: the thursday of last week", tag="slang")),
    C("2023-02-28",
      M("20:00", "Eli", "had a lovely long weekend in York the weekend before last", "report",
        lambda s: span(*[d - dt.timedelta(7) for d in last_wknd(s)]), "weekend before last = last weekend - 7",
        tag="british")),
    C("2025-12-31",
      M("16:00", "Ifan", "got my results back on monday, all clear", "report",
        lambda s: day(pv(s, "mon")))),
    C("2024-12-31",
      M("10:00", "Nell", "we saw the lights at Kew on the 27th", "report",
        lambda s: day(dom_prev(s, 27)), "", tag="no month")),
    C("2026-08-26",
      M("09:15", "Ash", "the car went in for its service yesterday", "report",
        lambda s: day(plus(s, -1)))),
    C("2025-05-14",
      M("08:00", "Ola", "we had friends over sunday night", "report",
        lambda s: day(pv(s, "sun")), "", tag="tonight")),

    C("2026-10-08",
      M("12:10", "Wyn", "the boiler finally got fixed tuesday", "report",
        lambda s: day(pv(s, "tue")), "", tag="slang")),
    C("2024-01-31",
      M("20:00", "Isla", "I was up in Glasgow the 22nd to the 26th", "report",
        lambda s: span(dom_prev(s, 22), dom_prev(s, 26)), "past range, no month", tag="range")),
    C("2025-12-22",
      M("19:00", "Tomas", "had the works do on friday, still recovering", "report",
        lambda s: day(pv(s, "fri")))),
    C("2023-07-13",
      M("09:00", "Rina", "took the kids to the open-air cinema on the 8th", "report",
        lambda s: day(dom_prev(s, 8)), "", tag="no month")),
    C("2026-01-31",
      M("11:00", "Col", "the boiler man came on thursday and it's still making that noise", "report",
        lambda s: day(pv(s, "thu")), "sent saturday")),
    C("2023-04-30",
      M("10:00", "Anouk", "the cat had her jabs 21/4, she sulked for days", "numeric",
        lambda s: day(dm_prev(s, 21, 4)), "day-first, past"),
      M("10:05", "Anouk", "good friday was a washout here", "named",
        lambda s: day(named_prev(s, lambda y: easter(y) - dt.timedelta(2))), "past: most recent good friday")),
    C("2025-12-31",
      M("22:40", "Beck", "fireworks at the park then back to ours, cab's booked for 1:30am", "plan",
        lambda s: day(plus(s, 1), "01:30"), "1:30am said late on 31 dec = 1 january of the new year", tag="tonight")),

    # ------------------------------------------------------------ mixed
    C("2023-01-31",
      M("08:00", "Sian", "since the boiler died yesterday can you have the kids thurs?", "mixed",
        lambda s: day(nx(s, "thu")), "about the request for thurs; yesterday is background", tag="slang")),
    C("2025-02-28",
      M("11:00", "Raf", "my last cut was 6 weeks ago so I've booked one for tues", "mixed",
        lambda s: day(nx(s, "tue")), "about the booking (tues); 6 weeks ago is background", tag="slang")),
    C("2026-01-31",
      M("19:00", "Bel", "after how wet last weekend was, fancy a walk tmrw if it's dry?", "mixed",
        lambda s: day(plus(s, 1)), "about tmrw (sunday 1 feb); last weekend is background", tag="slang")),
    C("2024-05-09",
      M("20:00", "Cara", "guess who I bumped into on tuesday - the guy whose wedding we're going to in june!", "mixed",
        lambda s: day(pv(s, "tue")), "about the meeting on tuesday (past); the june wedding is an aside")),
    C("2025-09-17",
      M("09:00", "Dom", "missed spin on monday so I'm doing the fri class instead", "mixed",
        lambda s: day(nx(s, "fri")), "about the fri class; monday is background", tag="slang")),
    C("2026-08-26",
      M("18:00", "Nico", "the garage has had the car since monday, can you give me a lift tmrw?", "mixed",
        lambda s: day(plus(s, 1)), "about the lift tmrw; monday is background", tag="slang")),
    C("2024-07-31",
      M("12:00", "Hattie", "loved having you on sunday! next time's at yours - the 17th?", "mixed",
        lambda s: day(dom_next(s, 17)), "about the next visit (the 17th = 17 august); sunday is background",
        tag="no month")),
    C("2025-01-15",
      M("19:30", "Jamie", "did my first parkrun of the year on sat, coming with me this sat?", "mixed",
        lambda s: day(this_(s, "sat")), "about this sat; last sat's run is background", tag="slang")),
    C("2026-04-02",
      M("08:00", "Remy", "the tickets I bought yesterday are for 12 june", "mixed",
        lambda s: day(dm_next(s, 12, 6)), "about the date the tickets are for (12 june); yesterday's purchase is background")),
    C("2023-06-30",
      M("09:00", "Lola", "it's rained every day since monday, is the bbq still on for sun?", "mixed",
        lambda s: day(nx(s, "sun")), "about the bbq sun; monday is background", tag="slang")),
    C("2024-10-23",
      M("17:00", "Ty", "on monday I signed the lease for the flat I'm moving into next month", "mixed",
        lambda s: day(pv(s, "mon")), "about signing the lease on monday (past); next month is an aside")),
    C("2025-05-14",
      M("13:00", "Bo", "you asked on monday about borrowing the tent - you can have it sat", "mixed",
        lambda s: day(nx(s, "sat")), "about handing over the tent sat; monday is background", tag="slang")),
    C("2023-03-17",
      M("17:30", "Al", lambda s: "after the mess at the one on the 2nd, the next committee meeting is %s" % (
          "weds " + ordinal(nx(s, "wed").day)), "mixed",
        lambda s: day(nx(s, "wed")), "about the next meeting (weds 22nd); the 2nd is background", tag="slang")),
    C("2024-02-29",
      M("12:00", "Juno", "ran 10k yesterday for the first time, training for the half in april", "mixed",
        lambda s: day(plus(s, -1)), "about yesterday's run (past); april is an aside")),
    C("2026-10-08",
      M("09:00", "Kai", "since you missed the meetup 2 weeks ago, come to the one on tues?", "mixed",
        lambda s: day(nx(s, "tue")), "about the meetup tues; 2 weeks ago is background", tag="slang")),
    C("2024-12-20",
      M("19:00", "Meg", "we had our office do last night, yours is tmrw right?", "mixed",
        lambda s: day(plus(s, 1)), "asks about the other person's do tmrw; last night is background", tag="slang")),
    C("2023-12-18",
      M("14:00", "Rory", "Nan turned 90 on saturday! we're throwing her a proper party in the new year", "mixed",
        lambda s: day(pv(s, "sat")), "about the birthday on saturday (past); the new-year party is an aside")),
    C("2025-06-30",
      M("18:00", "Edie", "picked up the paint at the weekend, can you help me do the hall on sat?", "mixed",
        lambda s: day(nx(s, "sat")), "about the help on sat; the weekend is background", tag="slang")),
    C("2023-09-26",
      M("09:00", "Orla", "on sunday I finally finished the jumper I'm giving Dad for christmas", "mixed",
        lambda s: day(pv(s, "sun")), "about finishing it on sunday (past); christmas is an aside")),
    C("2026-12-07",
      M("12:00", "Pia", "the flu jab I had last monday knocked me out, are you still ok for thurs?", "mixed",
        lambda s: day(nx(s, "thu")), "asks about thurs; last monday is background", tag="slang")),
    C("2024-11-19",
      M("20:00", "Oz", "we were in Rome the week before last - fancy Vienna with us on the 30th?", "mixed",
        lambda s: day(dom_next(s, 30)), "about the invitation for the 30th; the Rome week is background", tag="no month")),
    C("2023-11-15",
      M("08:30", "Fern", "Ollie was sick yesterday, could you do the school run thurs?", "mixed",
        lambda s: day(nx(s, "thu")), "about the request for thurs; yesterday is background", tag="slang")),
    C("2025-03-31",
      M("19:00", "Reg", "the quiz was cancelled last week, it's back on weds", "mixed",
        lambda s: day(nx(s, "wed")), "about the quiz weds; last week is background", tag="slang")),
    C("2026-06-11",
      M("14:00", "Mae", "saw your mum on tuesday, she wants us all over for lunch on sunday", "mixed",
        lambda s: day(nx(s, "sun")), "about the lunch sunday; tuesday is background")),

    # ------------------------------------------------------------ numeric
    C("2024-03-12",
      M("09:00", "Vet", "vet's booked for 14/3 at 10", "numeric",
        lambda s: day(dm_next(s, 14, 3), "10:00"), "day-first")),
    C("2023-10-19",
      M("13:00", "Ute", "tickets are for 3.11.", "numeric",
        lambda s: day(dm_next(s, 3, 11)), "dd.mm. (3 november)")),
    C("2025-01-31",
      M("10:00", "Sean", "flight lands 14/03/25 at 7am", "numeric",
        lambda s: day(dt.date(2025, 3, 14), "07:00"), "dd/mm/yy")),
    C("2026-01-13",
      M("16:00", "Fatima", "the deadline for the forms is 30/1", "numeric",
        lambda s: day(dm_next(s, 30, 1)), "day-first")),
    C("2024-09-05",
      M("15:00", "Greg", "I paid the invoice on 2/9, can you check it came through", "numeric",
        lambda s: day(dm_prev(s, 2, 9)), "day-first, past: 2 september")),
    C("2023-05-24",
      M("14:00", "Ivo", "we're away 12-15/6 so can't feed the cat", "numeric",
        lambda s: span(dm_next(s, 12, 6), dm_next(s, 15, 6)), "day-first range")),
    C("2025-11-12",
      M("10:20", "Bank", "your renewal is due 01/12/25", "numeric",
        lambda s: day(dt.date(2025, 12, 1)), "dd/mm/yy")),
    C("2026-06-11",
      M("19:00", "Lexi", "we moved in on 28/5 and it's still all boxes", "numeric",
        lambda s: day(dm_prev(s, 28, 5)), "day-first, past")),
    C("2024-11-19",
      M("18:00", "Tara", "hotel's booked 27/12 - 29/12", "numeric",
        lambda s: span(dm_next(s, 27, 12), dm_next(s, 29, 12)), "day-first range")),
    C("2023-12-31",
      M("18:00", "Dara", "returning the hire car on 2/1", "numeric",
        lambda s: day(dm_next(s, 2, 1)), "day-first: 2 january (crosses the year end)")),
    C("2025-07-24",
      M("14:00", "Klaus", "party 9.8. from 7pm, bring a bottle", "numeric",
        lambda s: day(dm_next(s, 9, 8), "19:00"), "dd.mm. (9 august)")),
    C("2026-09-30",
      M("08:00", "Liz", "letter says my appointment's 6/10 at 14:20", "numeric",
        lambda s: day(dm_next(s, 6, 10), "14:20"), "day-first: 6 october")),
    C("2024-05-31",
      M("11:00", "HR", "the form was signed 17.05.24", "numeric",
        lambda s: day(dt.date(2024, 5, 17)), "dd.mm.yy")),
    C("2023-08-31",
      M("08:00", "Mum", "term starts 4/9, have you got the uniform?", "numeric",
        lambda s: day(dm_next(s, 4, 9)), "day-first: 4 september")),
    C("2025-03-31",
      M("12:30", "Pav", "payday's 25/4 so I'll pay you back then", "numeric",
        lambda s: day(dm_next(s, 25, 4)), "day-first")),
    C("2026-12-07",
      M("09:00", "Office", "the office is closed 24/12-2/1", "numeric",
        lambda s: span(dm_next(s, 24, 12), dm_next(s, 2, 1)), "day-first range across the year end")),
    C("2024-01-31",
      M("18:00", "Rach", "party on 10/02 if you're around", "numeric",
        lambda s: day(dm_next(s, 10, 2)), "day-first")),
    C("2025-06-02",
      M("17:00", "Omid", "the results were posted 30/5", "numeric",
        lambda s: day(dm_prev(s, 30, 5)), "day-first, past")),
    C("2026-04-30",
      M("09:00", "Gwyn", "skip hire from 11/5 to 15/5", "numeric",
        lambda s: span(dm_next(s, 11, 5), dm_next(s, 15, 5)), "day-first range")),
    # US chats (month-first)
    C("2024-07-02",
      M("10:00", "Brad", "my flight home is 7/18", "numeric",
        lambda s: day(dm_next(s, 18, 7)), "US chat: month-first (july 18)", tag="US"),
      us=True),
    C("2025-10-31",
      M("09:00", "Kayla", "thanksgiving flights are booked, we leave 11/26", "numeric",
        lambda s: day(dm_next(s, 26, 11)), "US chat: month-first (november 26)", tag="US"),
      M("09:05", "Kayla", "and we're back the sunday after thanksgiving", "named",
        lambda s: day(named_next(s, thanksgiving) + dt.timedelta(3)), "US chat: thanksgiving = 4th thursday of november; sunday after = +3",
        tag="US"),
      us=True),
    C("2026-02-27",
      M("13:00", "Tyler", "the lease renewal's due 3/15", "numeric",
        lambda s: day(dm_next(s, 15, 3)), "US chat: month-first (march 15)", tag="US"),
      us=True),
    C("2023-03-17",
      M("16:00", "Megan", "we closed on the house 3/6!", "numeric",
        lambda s: day(dm_prev(s, 6, 3)), "US chat: month-first (march 6), past", tag="US"),
      us=True),

    # ------------------------------------------------------------ named
    C("2023-12-18",
      M("18:00", "Kirsty", "what are you doing nye?", "named",
        lambda s: day(named_next(s, fixed(12, 31))), "nye = 31 december", tag="slang")),
    C("2024-12-20",
      M("08:30", "Dan", "we're at my parents' for xmas eve", "named",
        lambda s: day(named_next(s, fixed(12, 24))), "", tag="slang")),
    C("2025-08-11",
      M("13:00", "Gaz", "bbq on bank holiday monday?", "named",
        lambda s: day(named_next(s, lambda y: last_monday(y, 8))), "UK august bank holiday = last monday of august")),
    C("2026-03-19",
      M("12:00", "Flo", "egg hunt at the farm on easter sunday, 10am start", "named",
        lambda s: day(named_next(s, easter), "10:00"), "easter sunday by the computus")),
    C("2023-11-15",
      M("20:00", "Chase", "are you guys doing thanksgiving at ours this year?", "named",
        lambda s: day(named_next(s, thanksgiving)), "US chat: 4th thursday of november", tag="US"),
      us=True),
    C("2024-12-30",
      M("11:00", "Abby", "the boxing day walk was freezing but worth it", "named",
        lambda s: day(named_prev(s, fixed(12, 26))), "past: most recent boxing day")),
    C("2025-10-07",
      M("18:00", "Megan", "halloween party at Jade's, fancy dress obvs", "named",
        lambda s: day(named_next(s, fixed(10, 31))))),
    C("2026-01-31",
      M("12:00", "Ray", "dinner on valentine's? or is that too cheesy", "named",
        lambda s: day(named_next(s, fixed(2, 14))))),
    C("2024-03-25",
      M("08:00", "Sal", "are you off on good friday?", "named",
        lambda s: day(named_next(s, lambda y: easter(y) - dt.timedelta(2))), "good friday = easter - 2")),
    C("2023-04-06",
      M("08:00", "Hamish", "family lunch easter monday, 1pm at gran's", "named",
        lambda s: day(named_next(s, lambda y: easter(y) + dt.timedelta(1)), "13:00"), "easter monday = easter + 1")),
    C("2025-12-31",
      M("13:00", "Cora", "new year's day hangover walk, 11am at the pier?", "named",
        lambda s: day(named_next(s, fixed(1, 1)), "11:00"), "sent 31 dec: 1 january of the new year")),
    C("2024-05-09",
      M("12:00", "Stu", "bbq on the late may bank holiday?", "named",
        lambda s: day(named_next(s, lambda y: last_monday(y, 5))), "UK late-may bank holiday = last monday of may")),
    C("2023-10-19",
      M("19:00", "Dec", "bonfire night at the rugby club?", "named",
        lambda s: day(named_next(s, fixed(11, 5))), "UK bonfire night = 5 november")),
    C("2026-11-18",
      M("10:00", "Auntie Pam", "christmas day's at ours this year", "named",
        lambda s: day(named_next(s, fixed(12, 25))))),
    C("2025-01-15",
      M("17:00", "Iain", "burns night supper, you in?", "named",
        lambda s: day(named_next(s, fixed(1, 25))), "burns night = 25 january")),
    C("2024-02-29",
      M("20:00", "Cian", "st patrick's day at Flanagan's?", "named",
        lambda s: day(named_next(s, fixed(3, 17))), "17 march")),
    C("2023-01-10",
      M("20:00", "Ruth", "we had a quiet nye in the end", "named",
        lambda s: day(named_prev(s, fixed(12, 31))), "past: the most recent nye (2022)", tag="slang")),
    C("2026-07-16",
      M("21:00", "Logan", "the fourth of july was wild this year", "named",
        lambda s: day(named_prev(s, fixed(7, 4))), "US chat: independence day, past", tag="US"),
      us=True),
    C("2025-04-10",
      M("09:00", "Carys", "took mum for lunch on mothering sunday", "named",
        lambda s: day(named_prev(s, lambda y: easter(y) - dt.timedelta(21))), "UK mothering sunday = easter - 21, past")),
    C("2024-11-30",
      M("10:00", "Bill", "xmas day lunch at 2?", "named",
        lambda s: day(named_next(s, fixed(12, 25)), "14:00"), "", tag="slang")),
    C("2026-04-30",
      M("18:00", "Rhian", "we're off on the spring bank holiday, beach?", "named",
        lambda s: day(named_next(s, lambda y: last_monday(y, 5))), "UK spring bank holiday = last monday of may")),
    C("2025-11-12",
      M("15:00", "Jade", "did you see the pics from halloween? 😂", "named",
        lambda s: day(named_prev(s, fixed(10, 31))), "past: the most recent halloween")),
    C("2024-08-14",
      M("12:00", "Mo", "what are you up to for the august bank holiday?", "named",
        lambda s: day(named_next(s, lambda y: last_monday(y, 8))), "last monday of august")),

    # ------------------------------------------------------------ corrections (pairs) + acknowledgements
    C("2023-02-28",
      M("18:00", "Ben", "5-a-side is thurs at 7", "correction",
        lambda s: day(nx(s, "thu"), "19:00"), "original", tag="slang", key="cr1"),
      M("18:02", "Kat", "👍", "distractor", None, "acknowledgement"),
      M("18:10", "Ben", "sorry, 5-a-side is weds at 7", "correction",
        lambda s: day(nx(s, "wed"), "19:00"), "corrected, cue word 'sorry'", tag="slang", corrects="cr1")),
    C("2024-03-25",
      M("09:00", "Gwen", "team lunch thursday 12:30 at Nando's", "correction",
        lambda s: day(nx(s, "thu"), "12:30"), "original", key="cr2"),
      M("09:05", "Raj", "nice one", "distractor", None, "acknowledgement"),
      M("09:40", "Gwen", "team lunch wednesday 12:30 at Nando's", "correction",
        lambda s: day(nx(s, "wed"), "12:30"), "corrected, NO cue word: same event restated with a new day", corrects="cr2")),
    C("2024-09-30",
      M("12:00", "Lou", "dentist is on the 9th", "correction",
        lambda s: day(dom_next(s, 9)), "original", tag="no month", key="cr3"),
      M("12:03", "Pat", "ok", "distractor", None, "acknowledgement"),
      M("12:20", "Lou", "actually the dentist is the 10th", "correction",
        lambda s: day(dom_next(s, 10)), "corrected, cue word 'actually'", tag="no month", corrects="cr3")),
    C("2025-03-04",
      M("20:00", "Mo", "Aunt Jo's flight lands sat at 6am", "correction",
        lambda s: day(nx(s, "sat"), "06:00"), "original", tag="slang", key="cr4"),
      M("20:03", "Ellie", "ok I'll set an alarm", "distractor", None, "acknowledgement"),
      M("20:30", "Mo", "Aunt Jo's flight lands sun at 6am", "correction",
        lambda s: day(nx(s, "sun"), "06:00"), "corrected, NO cue word", tag="slang", corrects="cr4")),
    C("2023-11-15",
      M("10:00", "Nat", "car's booked in for its service next tues", "correction",
        lambda s: day(next_(s, "tue")), "original (sent wednesday: +6)", tag="slang", key="cr5"),
      M("10:01", "Sid", "cool", "distractor", None, "acknowledgement"),
      M("10:30", "Nat", "correction: car service is next weds", "correction",
        lambda s: day(next_(s, "wed")), "corrected, cue word 'correction' (sent wednesday: +7)", tag="slang",
        corrects="cr5")),
    C("2026-06-11",
      M("08:00", "Ada", "parents evening tmrw 4:15", "correction",
        lambda s: day(plus(s, 1), "16:15"), "original", tag="slang", key="cr6"),
      M("08:01", "Joe", "👌", "distractor", None, "acknowledgement"),
      M("08:45", "Ada", "parents evening tmrw 5:15", "correction",
        lambda s: day(plus(s, 1), "17:15"), "corrected, NO cue word: new time", tag="slang", corrects="cr6")),
    C("2024-11-19",
      M("19:00", "Tariq", lambda s: "the party's on sat %s" % ordinal(nx(s, "sat").day + 7), "correction",
        lambda s: day(nx(s, "sat") + dt.timedelta(7)), "original (sat 30th)", tag="slang", key="cr7"),
      M("19:02", "Lina", "can't wait!!", "distractor", None, "acknowledgement"),
      M("19:05", "Tariq", lambda s: "my bad, it's fri %s" % ordinal(nx(s, "fri").day + 7), "correction",
        lambda s: day(nx(s, "fri") + dt.timedelta(7)), "corrected, cue 'my bad' (fri 29th)", tag="slang",
        corrects="cr7")),
    C("2025-12-22",
      M("11:00", "Gus", "carols at the church wednesday 6pm", "correction",
        lambda s: day(nx(s, "wed"), "18:00"), "original", key="cr8"),
      M("11:04", "Bea", "lovely", "distractor", None, "acknowledgement"),
      M("11:30", "Gus", "carols at the church tuesday 6pm", "correction",
        lambda s: day(nx(s, "tue"), "18:00"), "corrected, NO cue word", corrects="cr8")),
    C("2023-07-13",
      M("15:00", "Ivy", "book club's at mine on the 25th", "correction",
        lambda s: day(dom_next(s, 25)), "original", tag="no month", key="cr9"),
      M("15:10", "Zoe", "noted", "distractor", None, "acknowledgement"),
      M("16:00", "Ivy", "wait no, book club's on the 27th", "correction",
        lambda s: day(dom_next(s, 27)), "corrected, cue 'wait no'", tag="no month", corrects="cr9")),
    C("2026-10-08",
      M("17:00", "Ray", "boat trip sat 10am from the harbour", "correction",
        lambda s: day(nx(s, "sat"), "10:00"), "original", tag="slang", key="cr10"),
      M("17:20", "Meg", "yay", "distractor", None, "acknowledgement"),
      M("2026-10-09 08:00", "Ray", "boat trip sat 11am from the harbour", "correction",
        lambda s: day(nx(s, "sat"), "11:00"), "corrected next morning, NO cue word: same sat, new time", tag="slang",
        corrects="cr10")),
    C("2025-05-14",
      M("21:00", "Kai", "my leaving drinks are thursday week", "correction",
        lambda s: day(brit_week(s, "thu")), "original", tag="british", key="cr11"),
      M("21:02", "Amy", "I'll be there", "distractor", None, "acknowledgement"),
      M("21:10", "Kai", "scratch that, leaving drinks are friday week", "correction",
        lambda s: day(brit_week(s, "fri")), "corrected, cue 'scratch that'", tag="british", corrects="cr11")),
    C("2024-06-14",
      M("10:00", "Hal", "cinema trip 18/6 at 7", "correction",
        lambda s: day(dm_next(s, 18, 6), "19:00"), "original, day-first", key="cr12"),
      M("10:02", "Ola", "🙌", "distractor", None, "acknowledgement"),
      M("10:20", "Hal", "cinema trip 19/6 at 7", "correction",
        lambda s: day(dm_next(s, 19, 6), "19:00"), "corrected, NO cue word, day-first", corrects="cr12")),
]

QUESTIONS = [
    Q("2024-03-11 08:00", "what's on thurs?", lambda s: day(nx(s, "thu")), "[slang] coming thursday"),
    Q("2025-06-18 09:30", "when did I see Sam last month?", lambda s: span(month_rel(s, -1)), "last month = previous calendar month"),
    Q("2023-09-12 19:00", "what did I do on the 3rd?", lambda s: day(dom_prev(s, 3)), "past: most recent 3rd"),
    Q("2024-10-07 12:00", "anything planned this wknd?", lambda s: span(this_wknd(s)), "[slang]"),
    Q("2026-02-10 08:15", "what did I get up to last week?", lambda s: span(last_week(s))),
    Q("2025-12-01 10:00", "when's my dentist appointment?", None, "no date in the question"),
    Q("2023-05-02 21:00", "what was I doing 2 weeks ago?", lambda s: day(plus(s, -14)), "a single day: -14"),
    Q("2024-12-09 18:00", "what's on xmas eve?", lambda s: day(named_next(s, fixed(12, 24))), "[slang]"),
    Q("2026-08-19 13:00", "who did I have lunch with yesterday?", lambda s: day(plus(s, -1))),
    Q("2025-03-06 17:00", "what have I got on tmrw night?", lambda s: day(plus(s, 1)), "[slang]"),
    Q("2023-11-27 07:45", "what did I do at the weekend?", lambda s: span(last_wknd(s)), "[british] past, sent monday"),
    Q("2024-06-04 11:00", "what's happening on 21/6?", lambda s: day(dm_next(s, 21, 6)), "day-first"),
    Q("2026-04-27 09:00", "what am I doing next week?", lambda s: span(next_week(s))),
    Q("2025-09-01 20:00", "where did I go in august?", lambda s: span(month_prev(s, 8))),
    Q("2023-02-15 10:00", "what's on at 3 tmrw?", lambda s: day(plus(s, 1), "15:00"), "[slang]"),
    Q("2024-01-29 12:00", "when did I last see the physio?", None, "no date in the question"),
    Q("2026-11-02 18:30", "any plans for bonfire night?", lambda s: day(named_next(s, fixed(11, 5)))),
    Q("2025-05-21 08:00", "what did I do last sat?", lambda s: day(last_(s, "sat")), "[slang] sent wednesday"),
    Q("2023-07-05 14:00", "what's on thursday week?", lambda s: day(brit_week(s, "thu")), "[british] coming thursday + 7"),
    Q("2024-09-03 09:00", "what did I do on the august bank holiday?", lambda s: day(named_prev(s, lambda y: last_monday(y, 8)))),
    Q("2026-01-05 10:00", "what did I do on nye?", lambda s: day(named_prev(s, fixed(12, 31))), "[slang] past"),
    Q("2025-02-03 07:30", "have I got anything on weds?", lambda s: day(nx(s, "wed")), "[slang]"),
    Q("2023-12-27 16:00", "what am I doing on the 30th?", lambda s: day(dom_next(s, 30))),
    Q("2024-04-17 20:00", "when did I go to the gym last week?", lambda s: span(last_week(s))),
    Q("2026-06-24 19:00", "what did I do 10 days ago?", lambda s: day(plus(s, -10))),
    Q("2025-04-02 12:00", "what's planned for easter sunday?", lambda s: day(named_next(s, easter))),
    Q("2023-10-02 08:00", "what did I do on 23/9?", lambda s: day(dm_prev(s, 23, 9)), "day-first, past"),
    Q("2024-02-20 18:00", "what's on the saturday after next?", lambda s: day(after_next(s, "sat")), "[british]"),
    Q("2026-09-09 21:00", "did I see anyone on monday?", lambda s: day(pv(s, "mon")), "past"),
    Q("2025-07-31 22:00", "what's on in september?", lambda s: span(month_next(s, 9))),
    Q("2023-03-20 16:00", "what's on tonight?", lambda s: day(D(s)), "[tonight]"),
    Q("2024-11-13 08:30", "what did I do the weekend before last?", lambda s: span(*[d - dt.timedelta(7) for d in last_wknd(s)]),
      "[british]"),
    Q("2026-03-03 11:00", "when's the thing with Priya?", None, "no date in the question"),
    Q("2025-10-14 09:00", "what's on a week on friday?", lambda s: day(brit_week(s, "fri")), "[british] coming friday + 7"),
    Q("2023-06-06 09:00", "what did I do yesterday morning?", lambda s: day(plus(s, -1))),
    Q("2024-07-16 13:00", "what's on the 20th?", lambda s: day(dom_next(s, 20))),
    Q("2026-12-14 19:00", "what did I do last month?", lambda s: span(month_rel(s, -1))),
    Q("2025-01-02 10:00", "what did I do on boxing day?", lambda s: day(named_prev(s, fixed(12, 26)))),
    Q("2023-08-29 09:00", "what have I got on the day after tmrw?", lambda s: day(plus(s, 2)), "[slang]"),
    Q("2026-05-12 08:00", "anything on fri at 7?", lambda s: day(nx(s, "fri"), "19:00"), "[slang] evening reading of 7"),
]

CONVENTIONS = OrderedDict([
    ("gold_format", "gold is {start, end} ISO dates inclusive (single day: start == end), plus time HH:MM (24h, "
                    "timezone-naive local) only when an exact clock time is given (or carried over from earlier in the "
                    "chat); null when there is no date to extract."),
    ("what_gold_means", "the date (range) when the thing referred to happens/happened. When a message names an old and a "
                        "new time (reschedules, corrections) gold is the new/operative time."),
    ("notes_and_tags", "`note` explains the case; tags in square brackets give the spelling family folded into the main "
                       "group: [slang] short forms (tmrw, 2moro, wknd, sat, weds, thurs, thu, fri, sept, nov), [tonight] "
                       "tonight / this evening / past-midnight / last night, [british] thursday week, saturday after next, a week "
                       "on friday, the weekend after, fortnight, friday just gone, at the weekend, [no month] 'the 20th', "
                       "[weekday+date], [range], [check-in/out], [habitual], [from chat], [US]."),
    ("bare_weekday_future", "a bare weekday in a plan / future message = the next occurrence strictly after the send "
                            "date; the named weekday is never the send weekday."),
    ("bare_weekday_past", "a bare weekday in a past-tense message = the most recent occurrence strictly before the send date."),
    ("this_weekday", "'this sat' = the saturday later in the current Mon-Sun week (only used when there is one)."),
    ("next_weekday", "'next tues' is only used where the next occurrence and 'tuesday of next week' coincide and it is "
                     "5-7 days away."),
    ("last_weekday", "'last sat' is only used where the most recent saturday lies in the previous Mon-Sun week."),
    ("weekday_next_week", "'thursday next week' (also 'off thursday next week') = thursday of the following Mon-Sun week."),
    ("british_week", "'thursday week' / 'a week on thursday' = the coming thursday + 7 days (never said on a thursday); "
                     "'saturday after next' = the coming saturday + 7; '2 weeks today' = send date + 14; 'a fortnight ago' = -14."),
    ("weekends", "'this weekend'/'this wknd' (sent Mon-Fri) = the coming Sat-Sun; 'the weekend after' (after this "
                 "weekend) = that weekend + 7; past-tense 'at the weekend'/'last wknd'/'all weekend' = the most recent "
                 "Sat-Sun before the send date; 'the weekend before last' = that - 7."),
    ("weeks_months", "'next week' / 'last week' = the following / previous Mon-Sun week as a range; 'next month' / "
                     "'last month' = the following / previous calendar month; a month name alone = the whole month (next "
                     "occurrence, not the current month, for future; most recent past one for past)."),
    ("relative_days", "tmrw/2moro = +1, day after tmrw = +2, yesterday = -1, day before yesterday = -2, 'N days/weeks ago' "
                      "= a single day, 'a week ago today' = -7, 'in 2 weeks' = +14, 'this morning'/'earlier today' = send date, "
                      "'last night' = the day before the send date, 'tmrw night' = +1."),
    ("day_of_month", "'the 20th' without a month = the next date with that day-of-month strictly after the send date "
                     "(future) or the most recent one strictly before (past)."),
    ("weekday_with_date", "'thursday 22 january', 'sat 14 march', 'fri 8th' = that date (always a consistent weekday)."),
    ("numeric", "numeric dates are DAY-FIRST (14/3, 3.11., 14/03/25, 17.05.24); two-digit years are 20yy; without a year "
                "the next occurrence strictly after the send date (future) or the most recent before (past). 'a-b/m' and "
                "'d/m - d/m' ranges give start/end."),
    ("us_chats", "chats listed in `us_chat_ids` are written by US users: numeric dates there are MONTH-FIRST (7/18 = "
                 "july 18) and US holidays apply; their messages say so in `note` [US]."),
    ("named_days", "christmas/xmas day=12-25, xmas eve=12-24, boxing day=12-26, nye=12-31, new year's day=01-01, "
                   "halloween=10-31, valentine's=02-14, bonfire night=11-05, burns night=01-25, st patrick's day=03-17, "
                   "US fourth of july=07-04, easter sunday by the Gregorian computus, good friday=easter-2, easter monday="
                   "easter+1, UK mothering sunday=easter-21, UK august bank holiday ('bank holiday monday' in August) = last "
                   "monday of August, UK late-may/spring bank holiday = last monday of May, US thanksgiving = 4th thursday "
                   "of November. Future mentions: next occurrence on/after the send date; past: most recent before."),
    ("tonight_late", "'tonight'/'this evening' = the send date; a small-hours clock time (e.g. 'for 2') said late in the "
                     "evening = that time on the next calendar day."),
    ("clock_times", "bare hours are read the natural way for the activity (dinner at 7 -> 19:00, 'at 2' for a taxi home "
                    "from a club at 23:15 -> 02:00); vague times ('after 6', '11ish', 'between 8 and 12') give no time."),
    ("ranges", "'check in X, check out Y' = X..Y inclusive; two adjacent days ('mon and tues') = a range; 'the 22nd "
               "to the 26th' = that range."),
    ("habitual", "habitual statements ('every tuesday') have gold null unless a single occurrence is meant ('this sat')."),
    ("from_chat", "a message naming an event whose date/time another speaker gave earlier in the chat gets that date/time; "
                  "a reschedule that changes only the time keeps the earlier date."),
    ("mixed", "a message with a past and a future time: gold is the time the message is about - the thing asked for, "
              "proposed or arranged; or, where the main clause reports a past event and the other time is only an aside "
              "in a subordinate clause, the past event. `note` says which."),
    ("corrections", "both messages of a pair are group `correction`; the first carries its own (original) time, the "
                    "second (same chat, same speaker, `corrects` = first id) the corrected one. Half the corrections "
                    "use no cue word at all - the same event is simply restated with a new time. Acknowledgements from "
                    "others are group `distractor`, gold null."),
    ("distractors", "messages with no date to extract ('Wednesday' the TV show, 'may' the modal, '2/3' a fraction, "
                    "acknowledgements) have gold null and group 'distractor'."),
    ("questions", "questions are asked of an assistant about the user's own memories; gold follows the same rules "
                  "relative to `asked`; 'what's on X' = the coming occurrence, 'what did I do X' = the most recent past "
                  "one; a question with no date has gold null."),
])


# ================================================================= build
def parse(at, base):
    if len(at) == 5:
        return dt.datetime.strptime(base + " " + at, "%Y-%m-%d %H:%M")
    return dt.datetime.strptime(at, "%Y-%m-%d %H:%M")


def build():
    messages, chats, us_ids = [], [], []
    n = 0
    for ci, c in enumerate(CHATS, 1):
        cid = "c%03d" % ci
        if c.us:
            us_ids.append(cid)
        ids, keys, prev_sent = [], {}, None
        for m in c.msgs:
            n += 1
            mid = "m%03d" % n
            sent = parse(m.at, c.date)
            assert prev_sent is None or sent >= prev_sent, (cid, "messages out of order")
            prev_sent = sent
            text = m.text(sent) if callable(m.text) else m.text
            gold = m.gold(sent) if m.gold else None
            if m.key:
                GOLD[m.key] = gold
                keys[m.key] = (mid, m.who)
            note = m.note
            if m.tag:
                note = ("[%s] %s" % (m.tag, note)).strip()
            rec = OrderedDict([("id", mid), ("chat", cid), ("group", m.group),
                               ("sent", sent.strftime("%Y-%m-%dT%H:%M")), ("speaker", m.who),
                               ("text", text), ("gold", gold), ("note", note)])
            if m.corrects:
                orig_id, orig_who = keys[m.corrects]
                assert orig_who == m.who and m.group == "correction"
                rec["corrects"] = orig_id
            if m.group == "distractor":
                assert gold is None
            messages.append(rec)
            ids.append(mid)
        chats.append((cid, ids))
    questions = []
    for qi, q in enumerate(QUESTIONS, 1):
        asked = dt.datetime.strptime(q.asked, "%Y-%m-%d %H:%M")
        questions.append(OrderedDict([("id", "q%03d" % qi), ("group", "question"),
                                      ("asked", asked.strftime("%Y-%m-%dT%H:%M")), ("text", q.text),
                                      ("gold", q.gold(asked) if q.gold else None), ("note", q.note)]))
    return messages, chats, questions, us_ids


def counts(msgs, qs):
    g = Counter(m["group"] for m in msgs)
    g["question"] = len(qs)
    days = sorted({m["sent"][:10] for m in msgs})
    return OrderedDict([("messages", len(msgs)), ("questions", len(qs)),
                        ("chats", len({m["chat"] for m in msgs})),
                        ("distinct_send_days", len(days)),
                        ("first_day", days[0] if days else None), ("last_day", days[-1] if days else None),
                        ("by_group", OrderedDict(sorted(g.items())))])


def split(messages, chats, questions):
    """whole chats (and single questions) are units, stratified by the unit's primary group
    (correction if it holds one, else its first message's group); round(n/3) of each stratum to dev."""
    by_id = {m["id"]: m for m in messages}
    strata = {}
    for cid, ids in chats:
        groups = [by_id[i]["group"] for i in ids]
        prim = "correction" if "correction" in groups else groups[0]
        strata.setdefault(prim, []).append(("chat", cid))
    for q in questions:
        strata.setdefault("question", []).append(("q", q["id"]))
    rng = random.Random(SEED)
    dev = set()
    for prim in sorted(strata):
        units = sorted(strata[prim])
        rng.shuffle(units)
        dev.update(units[:int(len(units) / 3 + 0.5)])
    return dev


def write(name, msgs, qs, us_ids):
    conv = OrderedDict(CONVENTIONS)
    conv["us_chat_ids"] = [c for c in us_ids if any(m["chat"] == c for m in msgs)]
    out = OrderedDict([("conventions", conv), ("counts", counts(msgs, qs)), ("messages", msgs), ("questions", qs)])
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=1)
        f.write("\n")


def main():
    messages, chats, questions, us_ids = build()
    texts = [m["text"] for m in messages] + [q["text"] for q in questions]
    assert len(texts) == len(set(texts)), [t for t, k in Counter(texts).items() if k > 1]
    dev = split(messages, chats, questions)
    dev_m = [m for m in messages if ("chat", m["chat"]) in dev]
    test_m = [m for m in messages if ("chat", m["chat"]) not in dev]
    dev_q = [q for q in questions if ("q", q["id"]) in dev]
    test_q = [q for q in questions if ("q", q["id"]) not in dev]
    write("dev.json", dev_m, dev_q, us_ids)
    write("test.json", test_m, test_q, us_ids)
    write("all.json", messages, questions, us_ids)
    for name, ms, qs in (("dev", dev_m, dev_q), ("test", test_m, test_q), ("all", messages, questions)):
        c = counts(ms, qs)
        print(name, c["messages"], "messages,", c["questions"], "questions,", c["chats"], "chats,",
              c["distinct_send_days"], "days", dict(c["by_group"]))


if __name__ == "__main__":
    main()
