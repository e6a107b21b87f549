#!/usr/bin/env python3
"""Blind set 7 of chat messages and questions with gold dates (stdlib only).

Gold dates are COMPUTED from each message's send datetime by the small rule
functions below (never typed by hand). Send datetimes are drawn with a seeded
RNG (7777) under per-chat constraints (hours, weekdays, calendar windows); a
draw that would make any gold ambiguous under the conventions (e.g. a bare
weekday equal to the send weekday) is rejected and redrawn.

Run:  python3 make_blind.py   (writes dev.json, test.json, all.json here)
"""
import calendar
import datetime as dt
import json
import os
import random

SEED = 7777
HERE = os.path.dirname(os.path.abspath(__file__))
D0 = dt.date(2023, 1, 2)
D1 = dt.date(2026, 12, 20)
WD = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}


class Amb(Exception):
    """The draw makes this gold ambiguous: redraw the send date."""


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
    mo = (h + l - 7 * m + 114) // 31
    da = (h + l - 7 * m + 114) % 31 + 1
    return dt.date(y, mo, da)


def last_monday(y, m):
    d = dt.date(y, m, calendar.monthrange(y, m)[1])
    return d - dt.timedelta(days=d.weekday())


def nth_weekday(y, m, wd, n):
    d = dt.date(y, m, 1)
    d += dt.timedelta(days=(wd - d.weekday()) % 7)
    return d + dt.timedelta(days=7 * (n - 1))


NAMED = {
    "xmas": lambda y: dt.date(y, 12, 25),
    "xmas_eve": lambda y: dt.date(y, 12, 24),
    "xmas_eve_eve": lambda y: dt.date(y, 12, 23),
    "boxing": lambda y: dt.date(y, 12, 26),
    "nye": lambda y: dt.date(y, 12, 31),
    "nyd": lambda y: dt.date(y, 1, 1),
    "halloween": lambda y: dt.date(y, 10, 31),
    "valentines": lambda y: dt.date(y, 2, 14),
    "easter": easter,
    "good_friday": lambda y: easter(y) - dt.timedelta(days=2),
    "easter_monday": lambda y: easter(y) + dt.timedelta(days=1),
    "aug_bank_hol": lambda y: last_monday(y, 8),
    "may_bank_hol": lambda y: last_monday(y, 5),
    "thanksgiving": lambda y: nth_weekday(y, 11, 3, 4),
    "mothering_sunday": lambda y: easter(y) - dt.timedelta(days=21),
}

TD = dt.timedelta


class G:
    """A gold rule: f(send datetime) -> (start date, end date); optional time."""

    def __init__(self, f, time=None, shift=0):
        self.f, self.time, self.sh = f, time, shift

    def at(self, hhmm):
        return G(self.f, hhmm, self.sh)

    def shift(self, n):
        return G(self.f, self.time, self.sh + n)

    def __call__(self, sent):
        s, e = self.f(sent)
        s, e = s + TD(days=self.sh), e + TD(days=self.sh)
        g = {"start": s.isoformat(), "end": e.isoformat()}
        if self.time:
            g["time"] = self.time
        return g


def one(fn):
    return lambda sent: (fn(sent.date(), sent),) * 2


def rel(n):
    return G(one(lambda d, s: d + TD(days=n)))


def latenight_tmrw():
    """Sent 00:00-03:59 before sleeping: 'tmrw' = the same calendar date."""
    def f(d, s):
        if s.hour >= 4:
            raise Amb
        return d
    return G(one(f))


def nx(w):
    w = WD[w]

    def f(d, s):
        k = (w - d.weekday()) % 7
        if k == 0:
            raise Amb
        return d + TD(days=k)
    return G(one(f))


def pv(w):
    w = WD[w]

    def f(d, s):
        k = (d.weekday() - w) % 7
        if k == 0:
            raise Amb
        return d - TD(days=k)
    return G(one(f))


def this_wd(w):
    w = WD[w]

    def f(d, s):
        if w <= d.weekday():
            raise Amb
        return d + TD(days=w - d.weekday())
    return G(one(f))


def next_wd(w):
    """'next tues': the day in the following Mon-Sun week; only draws where
    this is also the next occurrence are kept."""
    w = WD[w]

    def f(d, s):
        t = d + TD(days=7 - d.weekday() + w)
        if (t - d).days > 7:
            raise Amb
        return t
    return G(one(f))


def wd_next_week(w):
    w = WD[w]
    return G(one(lambda d, s: d + TD(days=7 - d.weekday() + w)))


def wk_brit(w):
    """'thursday week' / 'saturday after next' = coming day + 7."""
    g = nx(w)
    return G(g.f, shift=7)


def _wkend(d):
    if d.weekday() > 4:
        raise Amb
    sat = d + TD(days=5 - d.weekday())
    return sat, sat + TD(days=1)


def this_we():
    return G(lambda s: _wkend(s.date()))


def we_after():
    return G(lambda s: _wkend(s.date()), shift=7)


def last_we():
    def f(s):
        d = s.date()
        if d.weekday() > 4:
            raise Amb
        sat = d - TD(days=d.weekday() + 2)
        return sat, sat + TD(days=1)
    return G(f)


def next_week():
    def f(s):
        m = s.date() + TD(days=7 - s.weekday())
        return m, m + TD(days=6)
    return G(f)


def last_week():
    def f(s):
        m = s.date() - TD(days=s.weekday() + 7)
        return m, m + TD(days=6)
    return G(f)


def _month(y, m):
    return dt.date(y, m, 1), dt.date(y, m, calendar.monthrange(y, m)[1])


def month_f(m):
    def f(s):
        if s.month == m:
            raise Amb
        return _month(s.year if m > s.month else s.year + 1, m)
    return G(f)


def month_p(m):
    def f(s):
        if s.month == m:
            raise Amb
        return _month(s.year if m < s.month else s.year - 1, m)
    return G(f)


def _scan(d, step, ok):
    for i in range(1, 800):
        c = d + TD(days=step * i)
        if ok(c):
            return c
    raise Amb


def dom_f(n):
    return G(one(lambda d, s: _scan(d, 1, lambda c: c.day == n)))


def dom_p(n):
    return G(one(lambda d, s: _scan(d, -1, lambda c: c.day == n)))


def num_f(dd, mm):
    """Yearless day-first date, next occurrence strictly after the send date."""
    return G(one(lambda d, s: _scan(d, 1, lambda c: (c.day, c.month) == (dd, mm))))


def num_p(dd, mm):
    return G(one(lambda d, s: _scan(d, -1, lambda c: (c.day, c.month) == (dd, mm))))


def span_f(d1, m1, d2, m2):
    """'14/9 - 21/9': start = next occurrence of the first, end = first
    occurrence of the second on/after the start."""
    def f(s):
        a = _scan(s.date(), 1, lambda c: (c.day, c.month) == (d1, m1))
        b = _scan(a - TD(days=1), 1, lambda c: (c.day, c.month) == (d2, m2))
        return a, b
    return G(f)


def ymd(y, m, d):
    x = dt.date(y, m, d)
    return G(lambda s: (x, x))


def named_f(name):
    def f(d, s):
        for y in (d.year, d.year + 1):
            x = NAMED[name](y)
            if x > d:
                return x
    return G(one(f))


def named_p(name):
    def f(d, s):
        for y in (d.year, d.year - 1):
            x = NAMED[name](y)
            if x < d:
                return x
    return G(one(f))


NONE = None

CONVENTIONS = {
    "gold_format": "gold is {start, end} ISO dates inclusive (single day: start == end), plus optional time HH:MM (24h, timezone-naive local) when the message/question gives a clock time (or, in a chat, when the time clearly carries over from the event being discussed); null when there is no date to extract.",
    "what_gold_means": "the date (range) when the thing referred to happens/happened. When a message names an old and a new time (reschedules, 'was supposed to be X but now Y', corrections), gold is the new/operative time.",
    "bare_weekday_future": "A bare weekday ('thurs', 'on friday') in a plan / future-tense message = the next occurrence strictly after the send date. Cases where the named weekday equals the send weekday are avoided (no same-day ambiguity), except when the message says today/tonight.",
    "bare_weekday_past": "A bare weekday in a report / past-tense message = the most recent occurrence strictly before the send date.",
    "last_weekday": "'last sat' = the most recent Saturday strictly before the send date.",
    "this_weekday": "'this sat' = the upcoming Saturday of the current Mon-Sun week, strictly after today.",
    "next_weekday": "'next tues' = the Tuesday of the following Mon-Sun calendar week. Most cases are chosen so that this coincides with 'next occurrence'; cases where the two readings differ say so in their note.",
    "weekday_next_week": "'thursday next week' = Thursday of the following Mon-Sun week.",
    "thursday_week": "'thursday week' (British) = the coming Thursday + 7 days. 'saturday after next' = the coming Saturday + 7 days.",
    "this_weekend": "'this weekend' (sent Mon-Fri) = the upcoming Saturday-Sunday.",
    "next_weekend": "'next weekend' = Saturday-Sunday of the following Mon-Sun week (only used where contrasted with 'this weekend' or otherwise unambiguous). 'the weekend after' (after 'this weekend') and 'the weekend after next' = upcoming weekend + 7 days.",
    "last_weekend": "'last weekend' / 'at the weekend' in past tense (sent Mon-Fri) = the most recent Saturday-Sunday before the send date.",
    "weeks": "'next week' / 'last week' = the following / previous Mon-Sun week as a range.",
    "months": "a month name alone = the whole month (next occurrence for future, most recent past for past).",
    "relative_days": "'tmrw' = send date + 1, 'day after tmrw' = +2, 'yesterday' = -1, 'N days/weeks ago' = send date - N days/weeks (a single day), 'in 2 weeks' = send date + 14.",
    "day_of_month": "'the 28th' without month = the next date with that day-of-month strictly after the send date (future) or the most recent one strictly before (past).",
    "numeric": "Numeric dates are DAY-FIRST (dd/mm, dd/mm/yy, dd.mm, d/m). Two-digit years are 20yy. Without a year: next occurrence strictly after the send date for future/plans, most recent strictly before for past-tense messages. 'a-b' numeric ranges give start/end.",
    "named_days": "christmas=12-25, xmas eve=12-24, 'christmas eve eve'=12-23, boxing day=12-26, nye=12-31, new year's day=01-01, halloween=10-31, valentine's=02-14, easter sunday by the Gregorian computus, good friday=easter-2, easter monday=easter+1, UK 'bank holiday monday' in August = last Monday of August (England), UK late-May/spring bank holiday = last Monday of May, US thanksgiving = 4th Thursday of November, UK mothering sunday = easter-21, US mother's day = 2nd Sunday of May. Future mentions: next occurrence on/after the send date; past mentions: most recent before.",
    "late_night": "A small-hours clock time (00:00-05:59) mentioned in the evening (sent 18:00-23:59), with or without 'tonight', refers to the next calendar day. 'at 12 tonight' = 00:00 next day. Messages sent 00:00-03:59 by someone who hasn't slept: 'tomorrow'/'later' = the coming daytime, i.e. the SAME calendar date as the send timestamp.",
    "clock_times": "Bare hours are read the natural way for the activity (dinner at 7 -> 19:00; 'at 2' for an afterparty sent at 22:30 -> 02:00).",
    "questions": "Question gold follows the same rules, relative to the asked datetime; 'what's on <date>' = the coming occurrence, 'what happened on <date>' = the most recent past one. A question without a date ('when's the dentist?') has gold null. '2 weeks ago' = a single day (asked date - 14).",
    "distractors": "Messages with no date to extract (including words like 'wednesday' the TV show, 'thursday' the album, 'may' modal, '2/3' a fraction) have gold null and group 'distractor'."
}


# ---------------------------------------------------------------- content
WDS = {"any": range(7), "wkday": range(5), "mon-thu": range(4), "wkend": (5, 6)}


def W(h=(8, 22), wd="any", win=None, lo=None, hi=None, days=(1, 31)):
    """Send constraints: hour range (inclusive), weekday set, calendar window
    ((m, d), (m, d)) possibly wrapping the year, absolute date bounds,
    day-of-month range of the send date."""
    wds = WDS[wd] if isinstance(wd, str) else wd
    return {"h": h, "wd": tuple(wds), "win": win, "lo": lo or D0, "hi": hi or D1, "days": days}


def m(group, speaker, text, gold, note, dmin=0, corr=None):
    return {"group": group, "speaker": speaker, "text": text, "gold": gold,
            "note": note, "dmin": dmin, "corr": corr}


CHATS = []


def C(when, *msgs):
    CHATS.append((when, list(msgs)))


# ---- plan (35)
C(W((9, 20)), m("plan", "kez", "u free tmrw for a coffee? thinking 11ish", rel(1).at("11:00"), "tmrw = +1; '11ish' taken as 11:00"))
C(W((8, 20)), m("plan", "coach dave", "trainings on thurs at 6 lads, dont forget ur boots", nx("thu").at("18:00"), "bare weekday, future; evening training 18:00"))
C(W((7, 12), "wkday"), m("plan", "sarah", "can u grab ellie from school on weds? ive got a meeting that runs till 4", nx("wed"), "pickup on the coming wed; 'till 4' is the meeting, no pickup time given"))
C(W((10, 21)), m("plan", "tom", "dinner at ours sat? 7.30 ok?", nx("sat").at("19:30"), "coming sat, 7.30 pm dinner"))
C(W((9, 18)), m("plan", "me", "hair appt booked for the 14th at 10:15", dom_f(14).at("10:15"), "the 14th = next 14th after send date"))
C(W((9, 21), "mon-thu"), m("plan", "bex", "lets do the cinema this sat, theres an 8pm showing", this_wd("sat").at("20:00"), "'this sat' sent Mon-Thu = the coming Saturday"))
C(W((17, 22)), m("plan", "jo", "vet at 9 2moro for biscuits jabs", rel(1).at("09:00"), "2moro = +1, 9 am vet"))
C(W((9, 22), (3, 4, 5, 6)), m("plan", "liam", "pub quiz next tues? we need a 4th", next_wd("tue"), "'next tues' sent Thu-Sun: following week's Tuesday, also the next occurrence"))
C(W((9, 21), (0, 1, 2, 4, 5, 6)), m("plan", "aunty pat", "were going to my nan's thursday week if ur around", wk_brit("thu"), "British 'thursday week' = coming Thursday + 7"))
C(W((9, 19), (0, 1, 2, 3, 4, 6)), m("plan", "gary", "mot is booked in for saturday after next, 8:30 drop off", wk_brit("sat").at("08:30"), "'saturday after next' = coming Saturday + 7"))
C(W((8, 22), (0, 1, 2, 3, 5, 6)), m("plan", "nina", "cant do tmrw but im free on fri afternoon if that helps", nx("fri"), "availability: gold is the day offered (fri); 'tmrw' is the day refused"))
C(W((15, 19), (1, 2, 3, 4)), m("plan", "team lead", "standup will be at 9:45 on monday from now on", nx("mon").at("09:45"), "the coming Monday, 09:45"))
C(W((10, 23)), m("plan", "amira", "revision sesh in the library 2moro 2pm?", rel(1).at("14:00"), "2moro = +1"))
C(W((9, 21), "mon-thu"), m("plan", "fin", "camping this wknd!! still need to borrow a tent tho", this_we(), "this wknd sent Mon-Thu = coming Sat-Sun"))
C(W((9, 21), win=((5, 1), (8, 31))), m("plan", "chloe", "lisbon trip is 3rd-7th oct, flights sorted", span_f(3, 10, 7, 10), "a day range in October, next occurrence"))
C(W((9, 20), (0, 1, 2, 3, 4)), m("plan", "dad", "nanas bday lunch is sunday at 1", nx("sun").at("13:00"), "coming Sunday, lunch at 13:00"))
C(W((12, 22)), m("plan", "priy", "im off work all next week so can do whenever", next_week(), "next week = following Mon-Sun"))
C(W((8, 22)), m("plan", "ollie", "dentist in 3 days ugh", rel(3), "in 3 days = +3"))
C(W((9, 22), (0, 1, 2, 3, 6)), m("plan", "captain", "ko 3pm sat, be there early pls", nx("sat").at("15:00"), "kick-off = the event time"))
C(W((8, 20), "wkday"), m("plan", "school office", "Parents evening is on the 9th, your slot is 5:40", dom_f(9).at("17:40"), "5:40 for parents evening = 17:40"))
C(W((9, 22)), m("plan", "sam", "were heading to wales in 2 weeks, so excited", rel(14), "in 2 weeks = +14 (single day by convention)"))
C(W((9, 22), (0, 1, 2, 4, 5, 6)), m("plan", "hana", "free thurs after 6 if u wanna get food", nx("thu"), "'after 6' is not a precise time, date only"))
C(W((8, 20)), m("plan", "grandma", "Doctors at 20 past 11 tomorrow dear", rel(1).at("11:20"), "'20 past 11' morning surgery = 11:20"))
C(W((9, 22), (0, 1, 2, 3, 5, 6)), m("plan", "meg", "movie night at mine friday? bring snacks", nx("fri"), "bare weekday future"))
C(W((13, 18), (1, 2, 3, 4)), m("plan", "kwame", "sprint planning first thing monday, 9am sharp", nx("mon").at("09:00"), "coming Monday"))
C(W((9, 21)), m("plan", "izzy", "lets go ice skating day after tmrw", rel(2), "day after tmrw = +2"))
C(W((9, 21), (0, 1, 2, 3, 4)), m("plan", "lou", "hairdressers sat morning, 10am, so brunch is a no from me", nx("sat").at("10:00"), "the hairdresser appointment sat 10:00"))
C(W((18, 23)), m("plan", "jas", "shall we go for a run tomorrow morning, 7?", rel(1).at("07:00"), "tomorrow morning 7 = 07:00"))
C(W((9, 20), "mon-thu"), m("plan", "mum", "grandad's coming to stay this friday x", this_wd("fri"), "'this friday' sent Mon-Thu = coming Friday"))
C(W((10, 22)), m("plan", "rich", "booked the thai place for 8pm tmrw", rel(1).at("20:00"), "tmrw +1, 20:00"))
C(W((8, 21), (2, 3, 4, 5, 6)), m("plan", "dan", "im picking up the kids at 3:15 on tues", nx("tue").at("15:15"), "school pickup 15:15"))
C(W((9, 21), (0, 1, 2, 3, 4)), m("plan", "study grp", "study group wednesday next week, room 4.02", wd_next_week("wed"), "'wednesday next week' = Wed of following Mon-Sun week; 4.02 is a room number"))
C(W((10, 16)), m("plan", "ash", "see u at the gig tonight, doors at 7", rel(0).at("19:00"), "tonight = send date, doors 19:00"))
C(W((9, 21)), m("plan", "steph", "mums flight lands at 6.40am on the 22nd", dom_f(22).at("06:40"), "next 22nd"))
C(W((8, 14)), m("plan", "bea", "yoga tmrw at half 6? the evening one", rel(1).at("18:30"), "'half 6' evening class = 18:30"))
C(W((22, 23)), m("plan", "dan", "afterparty at rubys, we'll head over about 1", rel(1).at("01:00"), "small-hours time mentioned in the late evening = next calendar day 01:00"))
C(W((20, 23), (0, 1, 2, 3, 4)), m("plan", "tash", "shattered, going to bed. dont forget bins go out first thing tmrw", rel(1), "tmrw = +1 (sent before midnight)"))
C(W((0, 3)), m("plan", "zac", "cant sleep lol. still on for lunch tmrw?", latenight_tmrw(), "sent in the small hours before sleeping: tmrw = the coming daytime = same calendar date"))

# ---- reschedule (30)
C(W((9, 18), (0, 1, 2, 3, 5, 6)), m("reschedule", "me", "dentist moved to fri 9:30", nx("fri").at("09:30"), "new time"))
C(W((9, 18), (0, 1, 2, 4, 6)), m("reschedule", "rachel", "theyve pushed the meeting to thurs at 2", nx("thu").at("14:00"), "work meeting at 2 = 14:00"))
C(W((9, 17)), m("reschedule", "coach", "trainings been bumped to 7.30 tmrw cos of the floodlights", rel(1).at("19:30"), "evening training 19:30"))
C(W((9, 22)), m("reschedule", "jen", "gonna have to postpone drinks to next week, sorry!!", next_week(), "the following Mon-Sun week"))
C(W((12, 19), "wkday"), m("reschedule", "boss", "review's been brought forward to tomorrow at 10", rel(1).at("10:00"), "brought forward to tmrw 10:00"))
C(W((9, 22), "mon-thu"), m("reschedule", "al", "sat's off, sunday instead?", nx("sun"), "new day = coming Sunday (sent Mon-Thu)"))
C(W((9, 22), (4, 5, 6, 0)), m("reschedule", "nat", "weds doesnt work any more, how about thurs?", nx("thu"), "new day: the thurs after the coming weds (sent Fri-Mon)"))
C(W((9, 22), (4, 5, 6, 0, 1, 2)), m("reschedule", "leon", "can we do fri instead of thurs for the cinema", nx("fri"), "new day fri (sent when coming thurs precedes fri)"))
C(W((9, 18), win=((1, 1), (1, 3))), m("reschedule", "jo", "vet rang, biscuit's appt is now the 12th instead of the 5th", dom_f(12), "the 12th of this month"))
C(W((9, 18), (1, 2, 3, 4, 5)), m("reschedule", "gary", "mot shifted to monday, garage has a backlog", nx("mon"), "coming Monday"))
C(W((9, 22), "mon-thu"), m("reschedule", "kim", "party got moved from sat to the sunday", nx("sun"), "the Sunday of the coming weekend"))
C(W((9, 22), win=((1, 1), (5, 31))), m("reschedule", "rosie", "we're postponing the trip to july", month_f(7), "month alone = whole July, next occurrence"))
C(W((8, 20), (0,)), m("reschedule", "instructor", "tuesday's class is moving to wednesday this week", this_wd("wed"), "sent Monday: Wednesday of this week"))
C(W((9, 20), (2, 3, 4, 5, 6)), m("reschedule", "lou", "hairdresser cancelled on me, rebooked for tues 4pm", nx("tue").at("16:00"), "new booking"))
C(W((17, 22), "mon-thu"), m("reschedule", "sarah", "pickups gonna be 4 not 3 tmrw, after school club", rel(1).at("16:00"), "new time 4 pm"))
C(W((16, 21), (3, 4, 5, 6)), m("reschedule", "mo", "date night's off tonight, lets do next weds instead", next_wd("wed"), "'next weds' sent Thu-Sun: following week's Wed, also next occurrence"))
C(W((9, 19), (2, 3, 4, 5, 6)), m("reschedule", "recruiter", "interview's been moved up to monday morning, 9.15", nx("mon").at("09:15"), "coming Monday 09:15"))
C(W((9, 18), (0, 1, 3, 4)), m("reschedule", "team lead", "1:1 is now wednesday week, carol's off", wk_brit("wed"), "'wednesday week' = coming Wed + 7; '1:1' is a meeting, not a date"))
C(W((9, 22), "mon-thu"), m("reschedule", "pete", "rain forecast so bbq is now sun not sat", nx("sun"), "coming Sunday"))
C(W((9, 22)), m("reschedule", "book club", "book club shifted to the 28th", dom_f(28), "next 28th"))
C(W((9, 18), (5, 6, 0, 1, 2)), m("reschedule", "me", "physio cant see me thurs, said friday at 11:45 instead", nx("fri").at("11:45"), "new appointment"))
C(W((8, 21)), m("reschedule", "hol", "can we move coffee to the afternoon? 3ish tmrw", rel(1).at("15:00"), "3ish afternoon = 15:00"))
C(W((9, 20), (0, 1, 2, 3, 4)), m("reschedule", "orchestra", "rehearsal pushed to thursday next week", wd_next_week("thu"), "Thursday of the following Mon-Sun week"))
C(W((9, 17), win=((9, 1), (10, 31))), m("reschedule", "surgery", "flu jab appointment now 3rd of nov", num_f(3, 11), "3 November, next occurrence"))
C(W((9, 22)), m("reschedule", "tash", "no longer doing tmrw, day after works tho", rel(2), "the day after tomorrow (+2)"))
C(W((9, 20), (0, 1, 2, 3)), m("reschedule", "landlord", "the plumber's coming saturday now rather than friday", nx("sat"), "coming Saturday"))
C(W((9, 21), (0, 1, 2, 3, 4)), m("reschedule", "dad", "lunch w/ gran moved to half 12 sunday", nx("sun").at("12:30"), "half 12 lunch = 12:30"))
C(W((10, 23), win=((3, 1), (5, 20))), m("reschedule", "maya", "exam got moved!!! its the 2nd of june now", num_f(2, 6), "2 June"))
C(W((9, 18), (4, 5, 6, 0, 1)), m("reschedule", "school office", "Parents' evening rescheduled for thurs 6.10pm", nx("thu").at("18:10"), "new time"))
C(W((9, 19)), m("reschedule", "jas", "gym tmrw - cant make 6, can we say 7.30 instead", rel(1).at("19:30"), "new time 19:30 tomorrow"))

# ---- report (35)
C(W((9, 22)), m("report", "kez", "went to the new ramen place yesterday, 10/10", rel(-1), "yesterday; 10/10 is a rating"))
C(W((9, 22), (6, 0, 1, 2, 3, 4)), m("report", "fin", "finally got my hair cut on sat", pv("sat"), "most recent Saturday before send"))
C(W((9, 22), (2, 3, 4, 5, 6)), m("report", "ollie", "had the dentist tues, 2 fillings 😭", pv("tue"), "past bare weekday"))
C(W((9, 22), "wkday"), m("report", "captain", "played wickham last weekend and lost 3-1", last_we(), "last weekend sent Mon-Fri; 3-1 is a score"))
C(W((12, 18)), m("report", "gary", "mot passed this morning 🙌", rel(0), "this morning = send date"))
C(W((10, 21)), m("report", "aunty pat", "visited grandma 3 days ago, she seemed well", rel(-3), "3 days ago"))
C(W((8, 18), "wkday"), m("report", "kwame", "offsite was last week, sorry for the radio silence", last_week(), "previous Mon-Sun week"))
C(W((15, 22), (4, 5, 6, 0)), m("report", "sarah", "kids had sports day on thurs", pv("thu"), "past bare weekday"))
C(W((9, 22), (1, 2, 3, 4)), m("report", "jo", "vet saw biscuit on monday, all fine", pv("mon"), "past bare weekday"))
C(W((9, 22), win=((9, 5), (10, 31))), m("report", "leon", "went to a festival in august, still buzzing", month_p(8), "most recent past August"))
C(W((9, 22)), m("report", "rachel", "my presentation went well yesterday afternoon", rel(-1), "yesterday"))
C(W((9, 22), win=((1, 8), (12, 31))), m("report", "chloe", "we got back from spain on the 4th", dom_p(4), "most recent past 4th"))
C(W((9, 22), (3, 4, 5, 6)), m("report", "nat", "i was off sick last weds", pv("wed"), "'last weds' = most recent Wednesday before send"))
C(W((9, 22)), m("report", "bex", "our anniversary was 2 weeks ago, he forgot 🙄", rel(-14), "2 weeks ago = -14"))
C(W((12, 19)), m("report", "maya", "had my driving test this morning... failed 😭", rel(0), "this morning"))
C(W((9, 22)), m("report", "landlord", "boiler was serviced a week ago today", rel(-7), "a week ago today = -7"))
C(W((9, 22), (5, 6, 0, 1)), m("report", "amira", "sat my stats exam on friday, think it went ok", pv("fri"), "'sat' is a verb; past Friday"))
C(W((9, 17)), m("report", "pete", "the match last night was unreal", rel(-1), "last night, sent in daytime = yesterday"))
C(W((9, 20)), m("report", "steph", "grandpa had his hip op yesterday morning, hes doing ok", rel(-1), "yesterday"))
C(W((9, 22), win=((4, 10), (12, 31))), m("report", "rosie", "we moved into the flat back in march", month_p(3), "most recent past March"))
C(W((8, 11)), m("report", "izzy", "fire alarm went off at 3am last night lol", rel(0).at("03:00"), "sent in the morning: the 3am just gone is on the send date"))
C(W((9, 22), (2, 3, 4, 5)), m("report", "hana", "popped into the office on tues to grab my charger", pv("tue"), "past weekday"))
C(W((10, 16), (5,)), m("report", "jas", "went out with the uni lot friday night, rough now", pv("fri"), "sent Saturday: last night = Friday"))
C(W((9, 22), (0, 1, 2, 3)), m("report", "ash", "ran my first 10k on sunday!!", pv("sun"), "past Sunday"))
C(W((10, 18)), m("report", "mum", "the boiler man came at 8 this morning", rel(0).at("08:00"), "this morning 08:00"))
C(W((9, 22), (3, 4, 5)), m("report", "dan", "parents evening was wednesday, miss said hes doing great", pv("wed"), "past Wednesday"))
C(W((9, 22), (6, 0, 1, 2)), m("report", "coach dave", "first away game last sat, won 2-0", pv("sat"), "last sat = most recent Saturday"))
C(W((9, 22)), m("report", "amira", "handed the essay in the day before yesterday", rel(-2), "-2"))
C(W((9, 21)), m("report", "tash", "nan called at half 7 this morning to ask about the weather lol", rel(0).at("07:30"), "half 7 this morning = 07:30"))
C(W((9, 22), "wkday"), m("report", "meg", "we went to the coast at the weekend", last_we(), "'at the weekend' past tense, sent Mon-Fri"))
C(W((9, 22), (3, 4, 5, 6)), m("report", "mo", "power cut was tues night about 9", pv("tue").at("21:00"), "tues night about 9 = 21:00"))
C(W((9, 22), win=((1, 2), (12, 12))), m("report", "priy", "got the keys on the 30th!!", dom_p(30), "most recent past 30th"))
C(W((9, 18), (4, 0)), m("report", "kwame", "sprint demo went fine on thurs, thanks for the help", pv("thu"), "past Thursday"))
C(W((9, 21), (1, 2, 3, 4, 5)), m("report", "dan", "took the kids swimming yesterday after school", rel(-1), "yesterday"))
C(W((19, 23)), m("report", "grandma", "Your uncle rang me this afternoon, lovely to hear from him", rel(0), "this afternoon = send date"))

# ---- mixed (25)
C(W((9, 22), (2, 5, 6)), m("mixed", "bea", "missed yoga tues so ill go thurs instead", nx("thu"), "target = the thurs plan; tues is the missed class"))
C(W((9, 20), win=((1, 1), (1, 12))), m("mixed", "me", "was meant to see the dentist last week but they cancelled, its now the 20th", dom_f(20), "operative date = the 20th of this month"))
C(W((9, 22), (5, 6, 0, 1, 2, 3)), m("mixed", "kim", "had such a laugh the other night, same again fri?", nx("fri"), "'the other night' has no date; gold = the proposed fri"))
C(W((9, 20), (1, 2, 3, 4)), m("mixed", "gary", "car failed its mot yesterday so its going back in on monday", nx("mon"), "the future Monday; yesterday is the failed test"))
C(W((9, 22), "wkday"), m("mixed", "fin", "we were gonna go sat but ended up going on the sunday", pv("sun"), "what actually happened: last Sunday (sent Mon-Fri)"))
C(W((9, 22), (6, 0, 1, 2, 3)), m("mixed", "tom", "ill drop back the drill i borrowed ages ago on sat", nx("sat"), "the return is on sat"))
C(W((9, 20), (4, 5, 6, 0)), m("mixed", "coach", "yesterdays match got rained off, replay is weds", nx("wed"), "the replay date"))
C(W((9, 22)), m("mixed", "steph", "well have been married 10 yrs on the 18th, can u believe it", dom_f(18), "future perfect; next 18th"))
C(W((9, 22), win=((1, 5), (12, 25))), m("mixed", "maya", "by the 3rd ill have handed everything in, then freedom", dom_f(3), "the next 3rd"))
C(W((9, 22), (0, 1, 2, 3)), m("mixed", "nina", "i wouldve come on sat if id known u were going", pv("sat"), "counterfactual about the past Saturday"))
C(W((9, 22), (3, 4, 5)), m("mixed", "al", "was gonna ring u weds but work went mental", pv("wed"), "past Wednesday"))
C(W((9, 22), win=((1, 1), (12, 8))), m("mixed", "rosie", "had promised to help jen move but shes not moving til the 12th now", dom_f(12), "operative date: next 12th"))
C(W((9, 20), (5, 6, 0, 1, 2)), m("mixed", "jo", "id booked the vet for thurs, turns out shes closed so itll be fri", nx("fri"), "operative day: fri after the coming thurs"))
C(W((9, 22), win=((1, 6), (3, 15))), m("mixed", "kez", "havent seen u since xmas! lunch next week?", next_week(), "xmas is the past anchor; gold = next week"))
C(W((9, 22), win=((2, 1), (12, 20))), m("mixed", "lou", "been meaning to book the hairdresser since jan, finally going on the 9th", dom_f(9), "next 9th"))
C(W((9, 20), (4, 5, 6, 0, 1)), m("mixed", "me", "the parcel was supposed to come yesterday, now they say thursday", nx("thu"), "new delivery day"))
C(W((9, 22), (0, 1, 2, 3)), m("mixed", "ollie", "we used to go every friday but this week its saturday", this_wd("sat"), "Saturday of this week"))
C(W((9, 22), win=((7, 1), (11, 30))), m("mixed", "grandma", "I'm seeing the consultant on the 15th, same one I saw back in may", dom_f(15), "next 15th; 'may' is the past month, not the gold"))
C(W((9, 22), (4, 5, 6, 0, 1)), m("mixed", "steph", "forgot to say mums coming up from devon on weds, she was here in feb too", nx("wed"), "the coming wed"))
C(W((9, 22), (0, 1)), m("mixed", "pete", "so glad last weeks over. friday drinks?", nx("fri"), "the coming Friday"))
C(W((9, 22), "wkday"), m("mixed", "dad", "id planned to paint the fence on sunday but it rained all day", pv("sun"), "the past Sunday"))
C(W((9, 20), (6, 0, 1, 2, 3)), m("mixed", "izzy", "tried the new bakery earlier, we have to go together on sat", nx("sat"), "the plan for sat"))
C(W((9, 20), win=((1, 1), (12, 2))), m("mixed", "mum", "the gas man never showed yesterday, rebooked for the 6th", dom_f(6), "new date: next 6th"))
C(W((9, 22), (0, 1, 2, 4, 5, 6)), m("mixed", "chloe", "ages since our last catch up, how are u fixed thursday week?", wk_brit("thu"), "thursday week = coming Thursday + 7"))
C(W((9, 22), (0, 1, 2, 3)), m("mixed", "bex", "the party i told u about last month is this saturday btw", this_wd("sat"), "Saturday of this week"))
C(W((9, 21), "mon-thu"), m("mixed", "ash", "had this cough since the weekend, seeing the gp tmrw at 10", rel(1).at("10:00"), "gp appointment tmrw 10:00"))

# ---- numeric (20)
C(W((9, 22), win=((1, 10), (8, 20))), m("numeric", "hana", "flights booked!! 14/9 out, back 21/9", span_f(14, 9, 21, 9), "trip range 14/9-21/9, next occurrence"))
C(W((9, 20), win=((1, 5), (3, 25))), m("numeric", "me", "dentist 03/04 at 2.15", num_f(3, 4).at("14:15"), "3 April, day-first; 2.15 pm"))
C(W((9, 20), win=((1, 3), (2, 20))), m("numeric", "rachel", "my last day is 28.2", num_f(28, 2), "28 Feb, dotted day-first"))
C(W((9, 22), win=((9, 1), (10, 30))), m("numeric", "liam", "can u do 5/11 for the fireworks?", num_f(5, 11), "5 November"))
C(W((9, 22), lo=dt.date(2025, 2, 1), hi=dt.date(2025, 11, 30)), m("numeric", "ash", "gig's on 12/12/25", ymd(2025, 12, 12), "explicit year"))
C(W((9, 22), lo=dt.date(2023, 10, 1), hi=dt.date(2024, 8, 1)), m("numeric", "nat", "moved in 1/9/23 and still havent unpacked", ymd(2023, 9, 1), "explicit year, 1 September 2023"))
C(W((9, 22), win=((5, 1), (7, 10))), m("numeric", "sarah", "schools out 22.7 then we're off to cornwall", num_f(22, 7), "22 July"))
C(W((9, 20), win=((8, 15), (10, 10))), m("numeric", "gary", "booked the mot for 17/10 8am", num_f(17, 10).at("08:00"), "17 October 08:00"))
C(W((9, 22), win=((8, 20), (11, 30))), m("numeric", "meg", "we went on 6/8 and it was packed", num_p(6, 8), "past, 6 August"))
C(W((9, 22), win=((3, 1), (7, 15))), m("numeric", "tom", "holiday is 2-9/8 so count me out", span_f(2, 8, 9, 8), "range 2-9 August"))
C(W((9, 22), win=((3, 1), (6, 15))), m("numeric", "aunty pat", "nan's 90th is 30/6, save the date", num_f(30, 6), "30 June"))
C(W((9, 18), win=((2, 1), (4, 30))), m("numeric", "kwame", "the invoice was paid on 19.01", num_p(19, 1), "past, 19 January"))
C(W((9, 20), win=((1, 10), (2, 25))), m("numeric", "recruiter", "interview 07/03 at 11", num_f(7, 3).at("11:00"), "7 March, 11:00"))
C(W((9, 22), lo=dt.date(2024, 6, 1), hi=dt.date(2025, 3, 1)), m("numeric", "bex", "got married 4/5/24 🥹 best day", ymd(2024, 5, 4), "4 May 2024"))
C(W((9, 21), win=((1, 10), (2, 5))), m("numeric", "captain", "match is 9/2, ko 2pm", num_f(9, 2).at("14:00"), "9 Feb, 14:00"))
C(W((9, 22), win=((10, 1), (12, 20))), m("numeric", "fin", "skiing 10.1-17.1 cant wait", span_f(10, 1, 17, 1), "range 10-17 Jan, next occurrence"))
C(W((9, 20), win=((2, 15), (3, 20))), m("numeric", "lou", "hairdresser 25/3 half 10", num_f(25, 3).at("10:30"), "25 March, half 10 = 10:30"))
C(W((9, 20), win=((6, 10), (7, 31))), m("numeric", "mum", "form says it was posted 2/6", num_p(2, 6), "past, 2 June"))
C(W((9, 22), win=((3, 1), (4, 8))), m("numeric", "nina", "cant do 11/4, free 12/4 tho", num_f(12, 4), "availability: gold is the free day 12 April"))
C(W((9, 22), lo=dt.date(2025, 8, 1), hi=dt.date(2025, 12, 31)), m("numeric", "amira", "course starts 15/1/26", ymd(2026, 1, 15), "explicit year"))

# ---- named (20)
C(W((9, 23), win=((11, 15), (12, 28))), m("named", "jas", "what u doing for nye?", named_f("nye"), "next 31 Dec"))
C(W((9, 22), win=((10, 1), (12, 15))), m("named", "hol", "xmas at my mums this year", named_f("xmas"), "next 25 Dec"))
C(W((9, 22), win=((11, 20), (12, 20))), m("named", "pete", "we're doing xmas eve drinks at the swan", named_f("xmas_eve"), "24 Dec"))
C(W((9, 22), win=((12, 1), (12, 22))), m("named", "dad", "boxing day walk as usual?", named_f("boxing"), "26 Dec"))
C(W((9, 22), win=((12, 1), (12, 22))), m("named", "rachel", "back at work the day after boxing day ugh", named_f("boxing").shift(1), "27 Dec"))
C(W((9, 22), win=((9, 20), (10, 25))), m("named", "izzy", "halloween party at jess's, costumes compulsory", named_f("halloween"), "31 Oct"))
C(W((9, 22), win=((1, 10), (2, 10))), m("named", "mo", "booked somewhere nice for valentines 😏", named_f("valentines"), "14 Feb"))
C(W((9, 22), win=((2, 1), (3, 18))), m("named", "grandma", "Easter Sunday lunch at mine, everyone welcome", named_f("easter"), "Easter Sunday, Gregorian computus"))
C(W((9, 22), win=((2, 1), (3, 15))), m("named", "chloe", "we're away over good friday", named_f("good_friday"), "Easter - 2"))
C(W((9, 22), win=((7, 1), (8, 15))), m("named", "tom", "bank holiday monday bbq at ours", named_f("aug_bank_hol"), "last Monday of August (England)"))
C(W((9, 22), win=((12, 27), (1, 10))), m("named", "meg", "had a lovely xmas, thanks for the pressie x", named_p("xmas"), "the Christmas just gone"))
C(W((9, 22), win=((1, 20), (2, 28))), m("named", "steph", "mothering sunday lunch booked for 1", named_f("mothering_sunday").at("13:00"), "Easter - 21, lunch 13:00"))
C(W((9, 18), win=((11, 1), (11, 20))), m("named", "kwame", "thanksgiving is a half day for the us office", named_f("thanksgiving"), "4th Thursday of November"))
C(W((9, 22), win=((12, 5), (12, 28))), m("named", "kez", "new years day hangover walk?", named_f("nyd"), "1 Jan next year"))
C(W((11, 20), win=((1, 2), (1, 10))), m("named", "ash", "nye was carnage lol", named_p("nye"), "the 31 Dec just gone"))
C(W((9, 22), win=((12, 1), (12, 20))), m("named", "hol", "xmas eve eve drinks? the usual?", named_f("xmas_eve_eve"), "23 Dec"))
C(W((9, 22), win=((2, 1), (3, 15))), m("named", "sarah", "easter monday we're at the zoo", named_f("easter_monday"), "Easter + 1"))
C(W((9, 22), win=((3, 20), (5, 15))), m("named", "leon", "spring bank hol camping trip?", named_f("may_bank_hol"), "last Monday of May"))
C(W((9, 22), win=((2, 16), (3, 20))), m("named", "maya", "got engaged on valentines day!!", named_p("valentines"), "the 14 Feb just gone"))
C(W((9, 22), win=((11, 1), (11, 20))), m("named", "dan", "halloween was mental, 60 trick or treaters", named_p("halloween"), "31 Oct just gone"))

# ---- corrections (16 pairs) with distractor acknowledgements
C(W((10, 20), (0, 1, 2, 3)),
  m("correction", "tom", "dinner sat at 7?", nx("sat").at("19:00"), "original: coming sat 19:00"),
  m("distractor", "meg", "👍", NONE, "acknowledgement", 3),
  m("correction", "tom", "sorry i meant 8, table wasnt free at 7", nx("sat").at("20:00"), "apology correction: same sat, 20:00", 9, 0))
C(W((9, 19), "mon-thu"),
  m("correction", "sarah", "footy pickup is 5 tmrw", rel(1).at("17:00"), "original 17:00 tmrw"),
  m("correction", "sarah", "update: 5.30, theyre doing penalties", rel(1).at("17:30"), "'update:' correction, same day 17:30", 22, 0))
C(W((9, 20), (5, 6, 0, 1, 2)),
  m("correction", "ollie", "dentist is thurs", nx("thu"), "original thurs"),
  m("distractor", "bea", "ok cool", NONE, "acknowledgement", 2),
  m("correction", "ollie", "wait no its fri, just checked the card", nx("fri"), "'wait' correction: the fri after that thurs", 4, 0))
C(W((9, 17), (2, 3, 4)),
  m("correction", "team lead", "meeting at 10 on monday", nx("mon").at("10:00"), "original"),
  m("correction", "team lead", "actually make that 11", nx("mon").at("11:00"), "'actually': same Monday 11:00", 6, 0))
C(W((9, 20), days=(1, 12)),
  m("correction", "jo", "vet on the 14th", dom_f(14), "original next 14th"),
  m("distractor", "dan", "noted", NONE, "acknowledgement", 5),
  m("correction", "jo", "um... its the 15th, sorry, misread the letter", dom_f(15), "hesitation + apology: next 15th", 11, 0))
C(W((9, 17), (3, 4, 5, 6, 0)),
  m("correction", "dan", "parents evening is weds 6pm", nx("wed").at("18:00"), "original"),
  m("distractor", "sarah", "ok", NONE, "acknowledgement", 1),
  m("correction", "dan", "erm no 6.30, just found the email", nx("wed").at("18:30"), "hesitation: same weds 18:30", 14, 0))
C(W((9, 20), (3, 4, 5, 6)),
  m("correction", "lou", "hair appt tues 3pm", nx("tue").at("15:00"), "original"),
  m("correction", "lou", "tues 4pm*", nx("tue").at("16:00"), "no cue, asterisk: tues 16:00", 1, 0))
C(W((9, 19), (0, 1, 2, 3)),
  m("correction", "steph", "train gets in at 14:05 on sat", nx("sat").at("14:05"), "original"),
  m("distractor", "grandma", "Lovely, see you then x", NONE, "acknowledgement", 20),
  m("correction", "steph", "oops 15:05, wrong train", nx("sat").at("15:05"), "'oops': same sat 15:05", 35, 0))
C(W((9, 20), days=(4, 31)),
  m("correction", "gary", "mot booked for the 2nd", dom_f(2), "original: next 2nd"),
  m("correction", "gary", "no wait the 3rd", dom_f(3), "'no wait': the 3rd of the same month as the 2nd", 2, 0))
C(W((9, 19), (0, 1, 2, 3, 4)),
  m("correction", "mum", "nans coming for lunch sunday at 12", nx("sun").at("12:00"), "original"),
  m("distractor", "rich", "👍👍", NONE, "acknowledgement", 8),
  m("correction", "mum", "apologies, she says 1 now, traffic on the m5", nx("sun").at("13:00"), "apology: same Sunday 13:00; m5 is a road", 40, 0))
C(W((9, 20), (0, 1, 2, 3)),
  m("correction", "captain", "match is 11am sat", nx("sat").at("11:00"), "original"),
  m("correction", "captain", "correction - 10.30 ko, 11 was last season", nx("sat").at("10:30"), "'correction': same sat 10:30", 5, 0))
C(W((9, 22), win=((3, 1), (7, 31))),
  m("correction", "hana", "flight 23/8 at 6am", num_f(23, 8).at("06:00"), "original"),
  m("distractor", "kez", "brutal", NONE, "reaction", 2),
  m("correction", "hana", "sorry 24/8!! 6am still", num_f(24, 8).at("06:00"), "apology: 24 Aug 06:00", 4, 0))
C(W((10, 21)),
  m("correction", "amira", "library 2moro at 1?", rel(1).at("13:00"), "original"),
  m("distractor", "fin", "ya", NONE, "acknowledgement", 3),
  m("correction", "amira", "make it half 1 actually, lecture runs over", rel(1).at("13:30"), "'actually': tmrw 13:30", 7, 0))
C(W((9, 20), (3, 4, 5, 6)),
  m("correction", "me", "physio tues 9am", nx("tue").at("09:00"), "original"),
  m("correction", "me", "ignore that, its weds 9am", nx("wed").at("09:00"), "'ignore that': the weds after that tues", 3, 0))
C(W((9, 21), win=((11, 1), (12, 10)), days=(1, 13)),
  m("correction", "bex", "work xmas party is the 15th", dom_f(15), "original: next 15th"),
  m("distractor", "mo", "ooh", NONE, "reaction", 1),
  m("correction", "bex", "nope 16th, im an idiot", dom_f(16), "self-deprecating correction: 16th", 6, 0))
C(W((17, 19)),
  m("correction", "jas", "gonna be there at 8 tonight", rel(0).at("20:00"), "original"),
  m("correction", "jas", "more like 9, sorry, bus is late", rel(0).at("21:00"), "apology: tonight 21:00", 25, 0))

# ---- standalone distractors
C(W((19, 23)), m("distractor", "izzy", "wednesday season 2 is so good omg", NONE, "Wednesday = TV show"))
C(W((9, 22)), m("distractor", "tom", "may i borrow ur charger", NONE, "'may' modal"))
C(W((12, 23)), m("distractor", "ollie", "ate 2/3 of the pizza before anyone got here", NONE, "2/3 is a fraction"))
C(W((9, 22)), m("distractor", "coach dave", "great effort lads, 4-2 is a cracking result", NONE, "a score"))
C(W((9, 22)), m("distractor", "grandma", "Ring me when you get a minute love", NONE, "no date"))

# ---- questions
QS = [
    (W((9, 21), win=((1, 1), (12, 31))), "what's on the 12th?", dom_f(12), "next 12th"),
    (W((9, 22), (3, 4, 5, 6)), "what did i do last weds?", pv("wed"), "last weds = most recent Wednesday before"),
    (W((8, 20), (4, 5, 6, 0, 1)), "anything on thursday?", nx("thu"), "coming Thursday"),
    (W((9, 22)), "when's the dentist?", NONE, "no date in the question"),
    (W((18, 23)), "what have i got tmrw", rel(1), "+1"),
    (W((9, 20), "wkday"), "did i go anywhere last weekend?", last_we(), "previous Sat-Sun"),
    (W((9, 20), "mon-thu"), "whats happening this weekend", this_we(), "coming Sat-Sun"),
    (W((9, 22), win=((3, 1), (12, 31))), "what was i doing on 3/2?", num_p(3, 2), "past: 3 Feb"),
    (W((9, 22), (0, 1, 2, 3)), "am i free sat?", nx("sat"), "coming Saturday"),
    (W((9, 22), win=((1, 5), (3, 31))), "what did we do on nye", named_p("nye"), "the 31 Dec just gone"),
    (W((9, 22)), "what's planned for next week?", next_week(), "following Mon-Sun"),
    (W((9, 22)), "who did i see yesterday", rel(-1), "-1"),
    (W((9, 22)), "what was on 2 weeks ago", rel(-14), "-14, single day"),
    (W((9, 22), win=((1, 3), (12, 28))), "anything booked for the 1st?", dom_f(1), "next 1st"),
    (W((9, 22), (5, 6, 0, 1, 2, 3)), "where was i last friday night", pv("fri"), "most recent Friday"),
    (W((9, 22)), "when is nan's birthday", NONE, "no date"),
    (W((9, 22), (0, 1, 2, 3, 5, 6)), "what's on friday week?", wk_brit("fri"), "coming Friday + 7"),
    (W((9, 22), win=((8, 1), (12, 31))), "what did i have on in june", month_p(6), "most recent past June"),
    (W((9, 22), win=((9, 1), (11, 10))), "am i busy on 18.11", num_f(18, 11), "18 Nov, next"),
    (W((9, 22), (2, 3, 4)), "what happened on monday", pv("mon"), "past Monday"),
    (W((9, 22)), "what's happening day after tmrw", rel(2), "+2"),
    (W((9, 22)), "when did i last get a haircut", NONE, "no date"),
    (W((9, 22), win=((11, 1), (12, 20))), "what are we doing xmas eve", named_f("xmas_eve"), "24 Dec"),
    (W((9, 22), "wkday"), "what was going on last week", last_week(), "previous Mon-Sun"),
    (W((10, 17)), "got anything on tonight", rel(0), "send date"),
    (W((9, 22), win=((1, 1), (6, 30))), "what's on in august", month_f(8), "next August"),
    (W((9, 22)), "what did i do 3 days ago", rel(-3), "-3"),
    (W((9, 22), (2, 3, 4)), "hows my tues looking", nx("tue"), "coming Tuesday (asked Wed-Fri)"),
]


# ---------------------------------------------------------------- build
def in_win(d, win):
    if not win:
        return True
    a, b = win
    k = (d.month, d.day)
    return a <= k <= b if a <= b else (k >= a or k <= b)


def draw(rng, when, golds, offsets):
    span = (when["hi"] - when["lo"]).days
    for _ in range(20000):
        d = when["lo"] + TD(days=rng.randrange(span + 1))
        if d.weekday() not in when["wd"] or not in_win(d, when["win"]) \
                or not when["days"][0] <= d.day <= when["days"][1]:
            continue
        h = rng.randint(*when["h"])
        base = dt.datetime(d.year, d.month, d.day, h, rng.randrange(60))
        sents = [base + TD(minutes=o) for o in offsets]
        if any(s.date() != d for s in sents):
            continue
        try:
            gs = [g(s) if g else None for g, s in zip(golds, sents)]
        except Amb:
            continue
        return sents, gs
    raise RuntimeError("no valid send date for %r" % (golds,))


def build():
    rng = random.Random(SEED)
    units, messages, questions = [], [], []
    mid = 0
    for ci, (when, msgs) in enumerate(CHATS, 1):
        chat = "c7-%03d" % ci
        offs, acc = [], 0
        for x in msgs:
            acc += x["dmin"]
            offs.append(acc)
        sents, gs = draw(rng, when, [x["gold"] for x in msgs], offs)
        ids, unit = [], []
        for x, s, g in zip(msgs, sents, gs):
            mid += 1
            rec = {"id": "m7-%03d" % mid, "chat": chat, "group": x["group"],
                   "sent": s.strftime("%Y-%m-%dT%H:%M"), "speaker": x["speaker"],
                   "text": x["text"], "gold": g, "note": x["note"]}
            if x["corr"] is not None:
                rec["corrects"] = ids[x["corr"]]
            ids.append(rec["id"])
            unit.append(rec)
        prim = "correction" if any(r["group"] == "correction" for r in unit) else unit[0]["group"]
        units.append((prim, "m", unit))
    for qi, (when, text, g, note) in enumerate(QS, 1):
        (s,), (gg,) = draw(rng, when, [g], [0])
        units.append(("question", "q", [{"id": "q7-%03d" % qi, "group": "question",
                                         "asked": s.strftime("%Y-%m-%dT%H:%M"), "text": text,
                                         "gold": gg, "note": note}]))
    # split: whole chats / single questions, stratified by primary group
    strata = {}
    for u in units:
        strata.setdefault(u[0], []).append(u)
    split = {"dev": [], "test": []}
    for k in sorted(strata):
        us = strata[k][:]
        rng.shuffle(us)
        n = round(len(us) / 3)
        split["dev"] += us[:n]
        split["test"] += us[n:]
    return units, split


def dump(units, name):
    msgs = [r for u in units if u[1] == "m" for r in u[2]]
    qs = [r for u in units if u[1] == "q" for r in u[2]]
    msgs.sort(key=lambda r: r["id"])
    qs.sort(key=lambda r: r["id"])
    counts = {}
    for r in msgs + qs:
        counts[r["group"]] = counts.get(r["group"], 0) + 1
    counts = dict(sorted(counts.items()))
    out = {"conventions": CONVENTIONS, "counts": counts, "messages": msgs, "questions": qs}
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")
    return counts, msgs, qs


def main():
    units, split = build()
    texts = [r["text"] for u in units for r in u[2]]
    assert len(texts) == len(set(texts)), "duplicate wording"
    cd = dump(split["dev"], "dev.json")[0]
    ct = dump(split["test"], "test.json")[0]
    ca, msgs, qs = dump(units, "all.json")
    days = {r["sent"][:10] for r in msgs} | {r["asked"][:10] for r in qs}
    print("messages %d in %d chats, questions %d, distinct days %d, %s .. %s"
          % (len(msgs), len({r["chat"] for r in msgs}), len(qs), len(days), min(days), max(days)))
    print("| group | dev | test | total |\n|---|---|---|---|")
    for g in ca:
        print("| %s | %d | %d | %d |" % (g, cd.get(g, 0), ct.get(g, 0), ca[g]))
    print("| **total** | %d | %d | %d |" % (sum(cd.values()), sum(ct.values()), sum(ca.values())))


if __name__ == "__main__":
    main()
