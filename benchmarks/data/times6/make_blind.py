#!/usr/bin/env python3
"""Build a sixth blind set of chat messages / questions with gold dates.

stdlib only, deterministic (seed below). Gold is computed in code from each
message's send datetime using the conventions of benchmarks/data/times/README.md.
Run:  python3 make_blind.py   (writes dev.json, test.json, all.json next to it)
"""
import datetime as dt
import json
import os
import random

SEED = 20261205
HERE = os.path.dirname(os.path.abspath(__file__))
MO, TU, WE, TH, FR, SA, SU = range(7)
ALL = tuple(range(7))
WKDAY = (MO, TU, WE, TH, FR)
D = dt.date
TD = dt.timedelta
FIRST, LAST = D(2023, 1, 2), D(2026, 11, 30)


# ---------------------------------------------------------------- date rules
def g(start, end=None, time=None):
    r = {"start": start.isoformat(), "end": (end or start).isoformat()}
    if time:
        r["time"] = time
    return r


def nxt(s, wd):  # next occurrence strictly after send date
    d = s + TD(1)
    while d.weekday() != wd:
        d += TD(1)
    return d


def prv(s, wd):  # most recent occurrence strictly before send date
    d = s - TD(1)
    while d.weekday() != wd:
        d -= TD(1)
    return d


def monday(s):
    return s - TD(s.weekday())


def nextweek(s, wd):  # weekday of the following Mon-Sun week
    return monday(s) + TD(7 + wd)


def thisweek(s, wd):
    d = monday(s) + TD(wd)
    assert d > s, (s, wd)
    return d


def wk_after(s, wd):  # 'thursday week' / 'saturday after next'
    return nxt(s, wd) + TD(7)


def weekend(s):  # upcoming Sat-Sun (sent Mon-Fri)
    sa = nxt(s, SA)
    return sa, sa + TD(1)


def last_weekend(s):
    su = prv(s, SU)
    return su - TD(1), su


def week_range(s, k):
    m = monday(s) + TD(7 * k)
    return m, m + TD(6)


def month_next(s, m):
    y = s.year if m > s.month else s.year + 1
    return D(y, m, 1), month_end(y, m)


def month_prev(s, m):
    y = s.year if m < s.month else s.year - 1
    return D(y, m, 1), month_end(y, m)


def month_end(y, m):
    return (D(y + (m == 12), m % 12 + 1, 1) - TD(1))


def dom_future(s, day):
    d = s + TD(1)
    while d.day != day:
        d += TD(1)
    return d


def dom_past(s, day):
    d = s - TD(1)
    while d.day != day:
        d -= TD(1)
    return d


def dm_future(s, day, m):
    d = s + TD(1)
    while (d.day, d.month) != (day, m):
        d += TD(1)
    return d


def dm_past(s, day, m):
    d = s - TD(1)
    while (d.day, d.month) != (day, m):
        d -= TD(1)
    return d


def easter(y):
    a = y % 19
    b, c = divmod(y, 100)
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g_ = (b - f + 1) // 3
    h = (19 * a + b - d - g_ + 15) % 30
    i, k = divmod(c, 4)
    l_ = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * l_) // 451
    month = (h + l_ - 7 * m + 114) // 31
    day = (h + l_ - 7 * m + 114) % 31 + 1
    return D(y, month, day)


def last_monday(y, m):
    d = month_end(y, m)
    while d.weekday() != MO:
        d -= TD(1)
    return d


def nth_wd(y, m, wd, n):
    d = D(y, m, 1)
    while d.weekday() != wd:
        d += TD(1)
    return d + TD(7 * (n - 1))


NAMED = {
    "xmas": lambda y: D(y, 12, 25),
    "xmas_eve": lambda y: D(y, 12, 24),
    "xmas_eve_eve": lambda y: D(y, 12, 23),
    "boxing": lambda y: D(y, 12, 26),
    "nye": lambda y: D(y, 12, 31),
    "nyd": lambda y: D(y, 1, 1),
    "halloween": lambda y: D(y, 10, 31),
    "valentines": lambda y: D(y, 2, 14),
    "easter": easter,
    "good_friday": lambda y: easter(y) - TD(2),
    "easter_monday": lambda y: easter(y) + TD(1),
    "aug_bh": lambda y: last_monday(y, 8),
    "may_bh": lambda y: last_monday(y, 5),
    "thanksgiving": lambda y: nth_wd(y, 11, TH, 4),
    "mothering": lambda y: easter(y) - TD(21),
    "us_mothers": lambda y: nth_wd(y, 5, SU, 2),
}


def named_future(s, key):
    for y in (s.year, s.year + 1):
        d = NAMED[key](y)
        if d >= s:
            return d


def named_past(s, key):
    for y in (s.year, s.year - 1):
        d = NAMED[key](y)
        if d < s:
            return d


def dm(day, m):
    return lambda y: D(y, m, day)


# ------------------------------------------------------------- data builders
CHATS = []      # dict(group, wds, hrs, near, msgs)
QUESTIONS = []  # dict(wds, hrs, near, text, gold, note)


def m(spk, text, gold, note, grp=None, corrects=None, gap=None):
    return dict(spk=spk, text=text, gold=gold, note=note, grp=grp,
                corrects=corrects, gap=gap)


def chat(group, wds, hrs, *msgs, near=None):
    CHATS.append(dict(group=group, wds=wds, hrs=hrs, near=near, msgs=list(msgs)))


def one(group, wds, hrs, spk, text, gold, note, near=None):
    chat(group, wds, hrs, m(spk, text, gold, note), near=near)


def q(wds, hrs, text, gold, note, near=None):
    QUESTIONS.append(dict(wds=wds, hrs=hrs, near=near, text=text, gold=gold, note=note))


def not_(*wds):
    return tuple(w for w in ALL if w not in wds)


def upto(wd):  # send weekdays on or before wd: 'last X' is unambiguous (last week's X)
    return tuple(range(0, wd + 1))


def after(wd):  # send weekdays strictly after wd: 'next X' == next occurrence
    return tuple(range(wd + 1, 7))


# ------------------------------------------------------------------ content
# gold functions take the SEND DATE (datetime.date) of the message.
MOTH = (MO, TU, WE, TH)
EVE = (18, 23)
DAY = (8, 17)
ANY = (7, 23)
LATE = (21, 23)

# ---- plan
one("plan", not_(TH), ANY, "A", "u free thurs? thinking pub quiz at the crown, starts 8", lambda s: g(nxt(s, TH), time="20:00"), "bare weekday future; quiz 8 = 20:00")
one("plan", ALL, DAY, "A", "dinner at mine tmrw around 7ish? bring wine lol", lambda s: g(s + TD(1), time="19:00"), "tmrw, dinner 7 = 19:00")
one("plan", ALL, EVE, "A", "2moro still good for coffee? 10:30 at the usual", lambda s: g(s + TD(1), time="10:30"), "2moro = +1")
one("plan", WKDAY, ANY, "A", "we're going bowling this sat if ur up for it", lambda s: g(thisweek(s, SA)), "this sat, sent Mon-Fri")
one("plan", MOTH, ANY, "A", "cant do fri but im free on sun afternoon", lambda s: g(nxt(s, SU)), "availability: operative day is sun (next occurrence)")
one("plan", not_(TH), ANY, "A", "fancy a walk thursday week? weather's meant to be decent", lambda s: g(wk_after(s, TH)), "thursday week = coming thu + 7")
one("plan", not_(SA), ANY, "A", "mums bday meal is saturday after next, 1pm, dont forget!!", lambda s: g(wk_after(s, SA), time="13:00"), "saturday after next = coming sat + 7")
one("plan", (TH, FR, SA, SU, MO), ANY, "A", "tues no good for me, weds any better?", lambda s: g(nxt(s, WE)), "operative = proposed weds (next occurrence)")
one("plan", ALL, LATE, "A", "gym 6am tmrw, hold me to it", lambda s: g(s + TD(1), time="06:00"), "sent late evening, tmrw 6am")
one("plan", ALL, ANY, "A", "we fly to lisbon in 2 weeks!!! cant wait", lambda s: g(s + TD(14)), "in 2 weeks = +14, single day")
one("plan", ALL, ANY, "A", "next week is mad busy but the week after im free any eve", lambda s: g(*week_range(s, 2)), "'the week after' next week = Mon-Sun week +2; operative free week")
one("plan", ALL, DAY, "A", "day after tmrw works for the viewing, 11am?", lambda s: g(s + TD(2), time="11:00"), "day after tmrw = +2")
one("plan", MOTH, ANY, "A", "book club this wknd? sat or sun whichever", lambda s: g(*weekend(s)), "this wknd sent Mon-Thu = upcoming Sat-Sun")
chat("plan", ALL, ANY, m("A", "dentist on the 19th at 9:40 ugh", lambda s: g(dom_future(s, 19), time="09:40"), "the 19th = next 19th (this month)"), near=None)
CHATS[-1]["chk"] = lambda s: 3 <= s.day <= 15
one("plan", ALL, (10, 16), "A", "tonight still on? 8 at the thai place", lambda s: g(s, time="20:00"), "tonight, sent daytime, 8 = 20:00")
one("plan", not_(MO), ANY, "A", "free for a call monday morning? say 9", lambda s: g(nxt(s, MO), time="09:00"), "bare weekday future")
one("plan", after(TU), ANY, "A", "boiler man's coming next tues, morning slot", lambda s: g(nextweek(s, TU)), "next tues, sent Wed-Sun so it is also the next occurrence")
one("plan", not_(SA), ANY, "A", "party at jess's on sat from 9, u coming?", lambda s: g(nxt(s, SA), time="21:00"), "party from 9 = 21:00")
one("plan", not_(SU), ANY, "A", "lets do brunch sun, 11 at the corner cafe", lambda s: g(nxt(s, SU), time="11:00"), "brunch 11 = 11:00")
one("plan", ALL, ANY, "A", "thursday next week for the team lunch?", lambda s: g(nextweek(s, TH)), "thursday next week = Thu of following Mon-Sun week")
one("plan", MOTH, ANY, "A", "fyi we're at the cottage the weekend after next", lambda s: g(weekend(s)[0] + TD(7), weekend(s)[1] + TD(7)), "weekend after next = upcoming weekend + 7")
one("plan", ALL, ANY, "A", "im off all of next week so lets do something", lambda s: g(*week_range(s, 1)), "next week = following Mon-Sun")
one("plan", not_(FR), ANY, "A", "hair appt fri 4:15", lambda s: g(nxt(s, FR), time="16:15"), "appointment 4:15 = 16:15")
one("plan", ALL, ANY, "A", "can u drop the keys round tmrw morning? im in till 11", lambda s: g(s + TD(1)), "tmrw; 'till 11' is availability not the event time, so no time")
one("plan", not_(SA), ANY, "A", "wanna come to the match sat? ko 3pm", lambda s: g(nxt(s, SA), time="15:00"), "kick-off 3pm")
chat("plan", ALL, ANY, m("A", "free on the 3rd? thinking we do the bday thing then", lambda s: g(dom_future(s, 3)), "the 3rd = next 3rd (next month)"))
CHATS[-1]["chk"] = lambda s: 18 <= s.day <= 27
one("plan", not_(WE), ANY, "A", "pencilling u in for weds at half 6", lambda s: g(nxt(s, WE), time="18:30"), "half 6 = 18:30")
one("plan", ALL, (20, 22), "A", "taxi's booked for 4 tmrw morning, airport run", lambda s: g(s + TD(1), time="04:00"), "4 tmrw morning = 04:00 on send date + 1")
one("plan", ALL, (18, 20), "A", "movie at 11.45 tonight?", lambda s: g(s, time="23:45"), "11.45 tonight = 23:45 same day")
one("plan", ALL, (21, 22), "A", "after the gig, chips at 1? kebab shop on the corner", lambda s: g(s + TD(1), time="01:00"), "late night: 1 (am) mentioned in the evening = next calendar day 01:00")
chat("plan", ALL, ANY, m("A", "in sept we're doing the coast to coast walk", lambda s: g(*month_next(s, 9)), "month alone future = whole september"))
CHATS[-1]["chk"] = lambda s: 3 <= s.month <= 8
one("plan", ALL, ANY, "A", "driving test is a week tmrw!! bricking it", lambda s: g(s + TD(8)), "British 'a week tomorrow' = send + 8")
one("plan", not_(FR), ANY, "A", "can u babysit fri night? we'll be back by 11", lambda s: g(nxt(s, FR)), "fri; 'back by 11' is not the start, no time")
one("plan", ALL, DAY, "A", "still up for tennis tmrw at 5?", lambda s: g(s + TD(1), time="17:00"), "tennis 5 = 17:00")
one("plan", (TU, WE, TH, FR), ANY, "A", "off to my nans sunday, back monday", lambda s: g(nxt(s, SU), nxt(s, SU) + TD(1)), "stay = range sun..mon")
one("plan", ALL, (0, 2), "A", "cant sleep. we're still doing the big shop tmrw right?", lambda s: g(s), "sent 00:00-02:59, not slept: tmrw = the coming daytime = same calendar date")

# ---- reschedule
one("reschedule", not_(TH), ANY, "A", "yoga's been moved to thurs 7pm", lambda s: g(nxt(s, TH), time="19:00"), "new time")
one("reschedule", (TU, WE, TH, FR, SA), ANY, "A", "they pushed the interview back to next mon, 2pm", lambda s: g(nextweek(s, MO), time="14:00"), "next mon (sent Tue-Sat, = next occurrence)")
one("reschedule", MOTH, ANY, "A", "friday's off, sat instead? same time, 8", lambda s: g(nxt(s, SA), time="20:00"), "X's off, Y instead; 8 pm")
one("reschedule", (SA, SU, MO), ANY, "A", "tues doesn't work any more, how about weds?", lambda s: g(nxt(s, WE)), "new = weds")
one("reschedule", MOTH, ANY, "A", "can we do sunday instead of saturday? lunch at 1 still", lambda s: g(nxt(s, SU), time="13:00"), "new = sunday 13:00")
one("reschedule", MOTH, ANY, "A", "postponed the bbq to the weekend after, forecast is grim", lambda s: g(weekend(s)[0] + TD(7), weekend(s)[1] + TD(7)), "the weekend after (this one) = upcoming weekend + 7")
one("reschedule", ALL, DAY, "A", "ops meeting brought forward to tmrw 9am", lambda s: g(s + TD(1), time="09:00"), "brought forward to tmrw 9am")
one("reschedule", ALL, (9, 14), "A", "bumped our call to 4.30 today", lambda s: g(s, time="16:30"), "today 4.30 = 16:30")
one("reschedule", not_(TH), ANY, "A", "the plumber's shifted to thursday week now", lambda s: g(wk_after(s, TH)), "thursday week")
one("reschedule", (SA, SU, MO, TU, WE), ANY, "A", "dinner moved from fri to thurs, 7:30", lambda s: g(nxt(s, TH), time="19:30"), "new = thurs 19:30")
one("reschedule", ALL, ANY, "A", "sorry can we push it to next week? any day is fine", lambda s: g(*week_range(s, 1)), "push to next week = following Mon-Sun")
one("reschedule", not_(SA), ANY, "A", "we've rescheduled the viewing for sat morning, 10", lambda s: g(nxt(s, SA), time="10:00"), "sat 10:00")
chat("reschedule", ALL, ANY, m("A", "match got called off, replayed on the 22nd", lambda s: g(dom_future(s, 22)), "the 22nd this month"))
CHATS[-1]["chk"] = lambda s: 5 <= s.day <= 18
one("reschedule", ALL, DAY, "A", "can't make 6 tmrw, 7:30 ok?", lambda s: g(s + TD(1), time="19:30"), "new time 7:30 pm tmrw")
one("reschedule", MOTH, ANY, "A", "footy's now sunday 10am not saturday", lambda s: g(nxt(s, SU), time="10:00"), "new = sunday 10am")
one("reschedule", not_(WE), ANY, "A", "lets push the quiz to weds week", lambda s: g(wk_after(s, WE)), "weds week = coming wed + 7")
one("reschedule", not_(MO), ANY, "A", "hairdresser rang, moved me to 3 on monday", lambda s: g(nxt(s, MO), time="15:00"), "hairdresser 3 = 15:00")
one("reschedule", ALL, ANY, "A", "gig's postponed till next month", lambda s: g(*month_next(s, s.month % 12 + 1)), "next month = whole following calendar month")
one("reschedule", ALL, (9, 17), "A", "instead of tonight can we do tmrw night? 8ish", lambda s: g(s + TD(1), time="20:00"), "new = tmrw 20:00")
chat("reschedule", ALL, ANY, m("A", "flights changed, we now land on the 2nd at 6:50am", lambda s: g(dom_future(s, 2), time="06:50"), "the 2nd = next month"))
CHATS[-1]["chk"] = lambda s: 16 <= s.day <= 26
one("reschedule", (FR, SA, SU, MO), ANY, "A", "nah tues is dead for me, thurs?", lambda s: g(nxt(s, TH)), "new = thurs (next occurrence)")
one("reschedule", ALL, ANY, "A", "boss moved my review to the day after tomorrow", lambda s: g(s + TD(2)), "+2")
one("reschedule", WKDAY, ANY, "A", "we could shift it to this sun if thats easier", lambda s: g(thisweek(s, SU)), "this sun, sent Mon-Fri")
one("reschedule", not_(WE), ANY, "A", "parents evening got pushed to 5:45 wednesday", lambda s: g(nxt(s, WE), time="17:45"), "17:45")
chat("reschedule", ALL, ANY, m("A", "the 10th's no good now, can we go for the 12th", lambda s: g(dom_future(s, 12)), "new = the 12th, same month"))
CHATS[-1]["chk"] = lambda s: 1 <= s.day <= 8
one("reschedule", (MO, TU, WE), ANY, "A", "thurs is off, got covid 🙃 maybe next thurs instead?", lambda s: g(nextweek(s, TH)), "contrasted with this week's thurs: next thurs = Thu of the following week (differs from next occurrence)")
one("reschedule", not_(SA), ANY, "A", "rebooked the vet for 11 on sat", lambda s: g(nxt(s, SA), time="11:00"), "sat 11:00")
one("reschedule", (TH, FR, SA, SU, MO), ANY, "A", "lunch is now weds not tues, my bad", lambda s: g(nxt(s, WE)), "new = weds")
one("reschedule", not_(SA), ANY, "A", "the fitting's delayed til saturday after next unfortunately", lambda s: g(wk_after(s, SA)), "saturday after next")
one("reschedule", ALL, (9, 15), "A", "we've moved drinks forward to 6 tonight", lambda s: g(s, time="18:00"), "tonight 6 = 18:00")
chat("reschedule", ALL, ANY, m("A", "can we do 1/3 instead of the 28th?", lambda s: g(dm_future(s, 1, 3)), "day-first 1/3 = 1 March"), near=(dm(28, 2), -10, -3))

# ---- report (past)
one("report", not_(TU), ANY, "A", "went to the new ramen place on tues, 10/10", lambda s: g(prv(s, TU)), "past bare weekday; '10/10' is a rating not a date")
one("report", ALL, ANY, "A", "we had the kids party yesterday, still recovering", lambda s: g(s - TD(1)), "yesterday")
one("report", upto(WE), ANY, "A", "saw the dentist last weds finally", lambda s: g(prv(s, WE)), "last weds (sent Mon-Wed: last week's)")
one("report", (SU, MO, TU, WE, TH), ANY, "A", "ran my first 10k sat!!", lambda s: g(prv(s, SA)), "past sat")
one("report", ALL, ANY, "A", "the boiler packed in 3 days ago, still freezing", lambda s: g(s - TD(3)), "3 days ago")
one("report", WKDAY, ANY, "A", "last weekend we went up to the lakes", lambda s: g(*last_weekend(s)), "last weekend, sent Mon-Fri")
chat("report", ALL, ANY, m("A", "had my interview on the 4th, heard nothing since", lambda s: g(dom_past(s, 4)), "the 4th past = this month"))
CHATS[-1]["chk"] = lambda s: 8 <= s.day <= 20
one("report", (TU, WE, TH, FR, SA), ANY, "A", "met up with dan last sunday, he says hi", lambda s: g(prv(s, SU)), "last sunday (not sent Mon)")
one("report", ALL, ANY, "A", "was off sick all of last week", lambda s: g(*week_range(s, -1)), "last week Mon-Sun")
one("report", not_(TH), ANY, "A", "the car failed its mot thurs 😩", lambda s: g(prv(s, TH)), "past thurs")
one("report", ALL, ANY, "A", "we got back from spain 2 weeks ago", lambda s: g(s - TD(14)), "2 weeks ago = -14")
one("report", (MO, TU, WE), ANY, "A", "finished the marathon in 4:12 on sunday", lambda s: g(prv(s, SU)), "4:12 is a duration, no time")
one("report", not_(MO), ANY, "A", "the gas man came round mon at 8am", lambda s: g(prv(s, MO), time="08:00"), "past mon 08:00")
one("report", (SU, MO, TU, WE, TH), ANY, "A", "got engaged on saturday night!!! 💍", lambda s: g(prv(s, SA)), "past saturday")
one("report", ALL, ANY, "A", "the day before yesterday i locked myself out lol", lambda s: g(s - TD(2)), "-2")
one("report", not_(FR), ANY, "A", "handed my notice in fri. terrifying", lambda s: g(prv(s, FR)), "past fri")
chat("report", ALL, ANY, m("A", "in august we were in croatia, it was roasting", lambda s: g(*month_prev(s, 8)), "month past = most recent august"))
CHATS[-1]["chk"] = lambda s: 9 <= s.month <= 12
one("report", ALL, (7, 11), "A", "my sister had the baby last night, 3.2kg, both fine", lambda s: g(s - TD(1)), "last night (sent morning) = yesterday")
one("report", upto(FR), ANY, "A", "we did the escape room last fri, so close", lambda s: g(prv(s, FR)), "last fri (sent Mon-Fri)")
one("report", ALL, ANY, "A", "a week ago today i started the new job", lambda s: g(s - TD(7)), "a week ago today = -7")
one("report", ALL, (9, 13), "A", "went to the gym at 6:30 this morning, feel amazing", lambda s: g(s, time="06:30"), "this morning 06:30")
one("report", not_(TU), ANY, "A", "the power cut was on tuesday evening around 7", lambda s: g(prv(s, TU), time="19:00"), "evening 7 = 19:00")
one("report", MOTH, ANY, "A", "i saw that film at the weekend, meh", lambda s: g(*last_weekend(s)), "at the weekend past tense, sent Mon-Thu")
chat("report", ALL, ANY, m("A", "flat inspection happened on the 30th, all fine", lambda s: g(dom_past(s, 30)), "most recent 30th (previous month)"))
CHATS[-1]["chk"] = lambda s: 2 <= s.day <= 12 and s.month != 3
one("report", ALL, ANY, "A", "last tues we had the quiz and came 2nd", lambda s: g(prv(s, TU)), "last tues (sent Mon/Tue: last week's); '2nd' is a placing")
CHATS[-1]["wds"] = (MO, TU)
one("report", WKDAY, ANY, "A", "was at a wedding the weekend before last", lambda s: g(last_weekend(s)[0] - TD(7), last_weekend(s)[1] - TD(7)), "weekend before last = last weekend - 7")
chat("report", ALL, ANY, m("A", "we went skiing in feb, never again", lambda s: g(*month_prev(s, 2)), "most recent february"))
CHATS[-1]["chk"] = lambda s: 3 <= s.month <= 6
one("report", not_(MO), ANY, "A", "got my results back monday, passed!!", lambda s: g(prv(s, MO)), "past monday")
one("report", MOTH, ANY, "A", "had a proper long lie in sun, bliss", lambda s: g(prv(s, SU)), "past sun")
one("report", (FR,), (8, 12), "A", "we had the leaving do thurs night, head is pounding", lambda s: g(prv(s, TH)), "thurs = yesterday")
one("report", ALL, (12, 18), "A", "dropped the parcel off at the post office at 10 this morning", lambda s: g(s, time="10:00"), "this morning 10:00")
chat("report", ALL, ANY, m("A", "the 14th was our anniversary, forgot to tell u", lambda s: g(dom_past(s, 14)), "most recent 14th, this month"))
CHATS[-1]["chk"] = lambda s: 16 <= s.day <= 27
one("report", ALL, ANY, "A", "so the car got towed on thurs last week", lambda s: g(week_range(s, -1)[0] + TD(3)), "thu of previous Mon-Sun week")
one("report", ALL, ANY, "A", "a fortnight ago we moved house", lambda s: g(s - TD(14)), "fortnight = 14 days")
one("report", ALL, ANY, "A", "yesterdays brunch was sooo good", lambda s: g(s - TD(1)), "yesterday")

# ---- mixed tense / context
one("mixed", not_(SA), ANY, "A", "rough week tbh but we're still on for sat at 8 yeah?", lambda s: g(nxt(s, SA), time="20:00"), "operative plan sat 20:00")
one("mixed", not_(FR), ANY, "A", "loved last night, same again fri? 7 at the bar", lambda s: g(nxt(s, FR), time="19:00"), "past 'last night' is context; plan fri 19:00")
chat("mixed", ALL, ANY, m("A", "forgot to say, jo rang yday - she's coming up on the 21st", lambda s: g(dom_future(s, 21)), "the event = jo's visit on the 21st (this month); the call is context"))
CHATS[-1]["chk"] = lambda s: 5 <= s.day <= 17
one("mixed", ALL, (9, 20), "A", "the gym was packed earlier so going again tmrw at 7am", lambda s: g(s + TD(1), time="07:00"), "plan tmrw 07:00")
one("mixed", (FR, SA, SU), ANY, "A", "was meant to have the dentist today but it's now next thursday", lambda s: g(nextweek(s, TH)), "next thursday sent Fri-Sun = next occurrence")
one("mixed", not_(SU), ANY, "A", "did the shop this morning so sunday lunch is sorted, come at 1", lambda s: g(nxt(s, SU), time="13:00"), "sunday lunch 13:00")
one("mixed", not_(TH), ANY, "A", "since we missed it last week, lets do the curry thurs", lambda s: g(nxt(s, TH)), "plan thurs")
one("mixed", (SU,), ANY, "A", "had a blast at yours, my place next sat?", lambda s: g(nextweek(s, SA)), "next sat sent Sunday = following week's sat = next occurrence")
one("mixed", ALL, ANY, "A", "just back from the vet, she has to go back in 10 days", lambda s: g(s + TD(10)), "in 10 days = +10")
one("mixed", ALL, ANY, "A", "yesterday was chaos so can we do the catch up at 3 tomorrow", lambda s: g(s + TD(1), time="15:00"), "plan tomorrow 15:00")
one("mixed", not_(WE), ANY, "A", "sorry i went quiet, been poorly. free weds eve from 6 tho", lambda s: g(nxt(s, WE), time="18:00"), "availability weds 18:00")
one("mixed", not_(SA), ANY, "A", "they delivered the sofa earlier!!! housewarming sat week?", lambda s: g(wk_after(s, SA)), "sat week = coming sat + 7")
one("mixed", not_(SU), ANY, "A", "been thinking about what u said sun... wanna talk tmrw after work, like 6?", lambda s: g(s + TD(1), time="18:00"), "plan tmrw 18:00; sun is past context")
one("mixed", not_(TH), ANY, "A", "watched wednesday all wknd lol. anyway drinks thurs?", lambda s: g(nxt(s, TH)), "'wednesday' is the TV show; plan thurs")
one("mixed", ALL, (14, 19), "A", "had a nap earlier lol. still on for the 9.30 screening tonight?", lambda s: g(s, time="21:30"), "tonight 21:30")
one("mixed", not_(SA), ANY, "A", "may have to bring the kids, is sat at 2 still ok", lambda s: g(nxt(s, SA), time="14:00"), "'may' modal; sat 14:00")
chat("mixed", ALL, ANY, m("A", "been ages since the last one - quiz at the anchor on the 27th, 7:30 start", lambda s: g(dom_future(s, 27), time="19:30"), "the 27th this month 19:30"))
CHATS[-1]["chk"] = lambda s: 10 <= s.day <= 24
one("mixed", (TU, WE, TH, FR, SA), ANY, "A", "ugh 2/3 of the team are off sick, meetings next mon now at 10", lambda s: g(nextweek(s, MO), time="10:00"), "2/3 fraction; next mon (sent Tue-Sat) 10:00")
one("mixed", MOTH, ANY, "A", "my parents visited last wknd so im shattered, but fri works for dinner", lambda s: g(nxt(s, FR)), "plan fri")
chat("mixed", ALL, ANY, m("A", "we'll be back from cornwall on the 9th, booked it back in jan lol", lambda s: g(dom_future(s, 9)), "the 9th this month; jan is context"))
CHATS[-1]["chk"] = lambda s: 1 <= s.day <= 6 and s.month >= 4
one("mixed", ALL, LATE, "A", "got ur msg late sorry - tmrw at half 10 is perfect", lambda s: g(s + TD(1), time="10:30"), "sent late evening, tmrw half 10 = 10:30")
one("mixed", not_(SU), ANY, "A", "did parkrun sat, next one im doing is the 5k sun week", lambda s: g(wk_after(s, SU)), "sun week = coming sun + 7")
CHATS[-1]["wds"] = (MO, TU, WE, TH, FR)
chat("mixed", ALL, ANY, m("A", "she said last time it'd be the 15th but it's actually the 16th at 4", lambda s: g(dom_future(s, 16), time="16:00"), "operative = the 16th (this month) 16:00"))
CHATS[-1]["chk"] = lambda s: 2 <= s.day <= 12
one("mixed", not_(SA), ANY, "A", "went past the new bakery yday, wanna try it sat morning?", lambda s: g(nxt(s, SA)), "plan sat")
one("mixed", ALL, (8, 11), "A", "so tired after last night but ill be there at 12 tmrw", lambda s: g(s + TD(1), time="12:00"), "tmrw 12:00")

# ---- numeric (day-first)
one("numeric", ALL, ANY, "A", "gig is 18/11, get the night off!", lambda s: g(dm_future(s, 18, 11)), "18 Nov", near=(dm(18, 11), -40, -5))
one("numeric", ALL, ANY, "A", "party on 3.6 from 2pm", lambda s: g(dm_future(s, 3, 6), time="14:00"), "3 June 14:00", near=(dm(3, 6), -30, -3))
one("numeric", ALL, ANY, "A", "rents due 1/12 btw", lambda s: g(dm_future(s, 1, 12)), "1 Dec", near=(dm(1, 12), -25, -2))
one("numeric", ALL, ANY, "A", "we fly 14/2/25 early doors", lambda s: g(D(2025, 2, 14)), "explicit year", near=(lambda y: D(2025, 2, 14), -60, -5))
one("numeric", ALL, ANY, "A", "on holiday 22-29/7 so count me out", lambda s: g(dm_future(s, 22, 7), dm_future(s, 29, 7)), "range 22-29 July", near=(dm(22, 7), -50, -10))
one("numeric", ALL, ANY, "A", "finished the course on 12/5, cert came today", lambda s: g(dm_past(s, 12, 5)), "past 12 May", near=(dm(12, 5), 5, 30))
one("numeric", ALL, ANY, "A", "moved in 28.02 so almost 3 months now", lambda s: g(dm_past(s, 28, 2)), "past 28 Feb", near=(dm(28, 2), 80, 88))
one("numeric", ALL, ANY, "A", "the wedding's on 6/9/26!!", lambda s: g(D(2026, 9, 6)), "explicit year, 6 Sep 2026", near=(lambda y: D(2026, 9, 6), -300, -30))
one("numeric", ALL, DAY, "A", "is 9/4 ok for the checkup? 11am", lambda s: g(dm_future(s, 9, 4), time="11:00"), "day-first 9 April", near=(dm(9, 4), -25, -3))
one("numeric", ALL, ANY, "A", "i started there 3/10/23 so not long", lambda s: g(D(2023, 10, 3)), "explicit year, past", near=(lambda y: D(2023, 10, 3), 100, 400))
one("numeric", ALL, ANY, "A", "kids break up 20.12 thank god", lambda s: g(dm_future(s, 20, 12)), "20 Dec", near=(dm(20, 12), -20, -2))
one("numeric", ALL, ANY, "A", "their flight lands 5/1 at 23:10", lambda s: g(dm_future(s, 5, 1), time="23:10"), "5 Jan, may be next year", near=(dm(5, 1), -20, -3))
one("numeric", ALL, ANY, "A", "can u do 11/06?", lambda s: g(dm_future(s, 11, 6)), "11 June", near=(dm(11, 6), -30, -3))
one("numeric", ALL, ANY, "A", "oh the exam was 30/4, forgot to say it went ok", lambda s: g(dm_past(s, 30, 4)), "past 30 April", near=(dm(30, 4), 2, 10))
one("numeric", ALL, ANY, "A", "lets say 17/3 at 7 for the meal", lambda s: g(dm_future(s, 17, 3), time="19:00"), "17 March 19:00", near=(dm(17, 3), -30, -3))
one("numeric", ALL, ANY, "A", "deadline 2.8 eek", lambda s: g(dm_future(s, 2, 8)), "2 Aug", near=(dm(2, 8), -25, -2))
one("numeric", ALL, ANY, "A", "we got the keys 19/10/24!!", lambda s: g(D(2024, 10, 19)), "explicit year past", near=(lambda y: D(2024, 10, 19), 1, 40))
one("numeric", ALL, ANY, "A", "tickets for 25-26/10 booked 🎉", lambda s: g(dm_future(s, 25, 10), dm_future(s, 26, 10)), "range 25-26 Oct", near=(dm(25, 10), -60, -5))
one("numeric", ALL, ANY, "A", "appointment 08/01 9.15", lambda s: g(dm_future(s, 8, 1), time="09:15"), "8 Jan 09:15", near=(dm(8, 1), -15, -3))
one("numeric", ALL, ANY, "A", "back in the office 4/8, catch up then?", lambda s: g(dm_future(s, 4, 8)), "4 Aug", near=(dm(4, 8), -20, -3))

# ---- named days
def nf(key, time=None):
    return lambda s: g(named_future(s, key), time=time)


def np_(key, time=None):
    return lambda s: g(named_past(s, key), time=time)


A_ = lambda key: (lambda y: NAMED[key](y))
one("named", ALL, ANY, "A", "what r u doing for nye?", nf("nye"), "nye future", near=(A_("nye"), -30, -3))
one("named", ALL, ANY, "A", "xmas at ours this year, dinner at 2", nf("xmas", "14:00"), "xmas 14:00", near=(A_("xmas"), -40, -3))
one("named", ALL, ANY, "A", "boxing day walk? same as last yr", nf("boxing"), "boxing day future", near=(A_("boxing"), -20, -2))
one("named", ALL, ANY, "A", "easter sunday lunch at nanas, 1ish", nf("easter", "13:00"), "easter sunday 13:00", near=(A_("easter"), -25, -3))
one("named", ALL, ANY, "A", "good friday we're driving down to devon", nf("good_friday"), "good friday", near=(A_("good_friday"), -20, -3))
one("named", ALL, ANY, "A", "bank holiday monday bbq? the august one obvs", nf("aug_bh"), "August bank holiday = last Mon of Aug", near=(A_("aug_bh"), -20, -3))
one("named", ALL, ANY, "A", "halloween party at toms, fancy dress ofc", nf("halloween"), "halloween future", near=(A_("halloween"), -20, -2))
one("named", ALL, ANY, "A", "valentines dinner is booked, 8pm", nf("valentines", "20:00"), "valentine's 20:00", near=(A_("valentines"), -10, -1))
one("named", ALL, ANY, "A", "xmas eve drinks at the red lion?", nf("xmas_eve"), "xmas eve", near=(A_("xmas_eve"), -20, -2))
one("named", ALL, ANY, "A", "we spent new years day in bed lol", np_("nyd"), "past new year's day", near=(A_("nyd"), 2, 20))
one("named", ALL, ANY, "A", "the kids went trick or treating on halloween, sugar overload", np_("halloween"), "past halloween", near=(A_("halloween"), 1, 14))
one("named", ALL, ANY, "A", "easter monday we're at the zoo", nf("easter_monday"), "easter monday", near=(A_("easter_monday"), -20, -2))
one("named", ALL, ANY, "A", "thanksgiving at my cousins in boston this yr", nf("thanksgiving"), "US thanksgiving 4th Thu Nov", near=(A_("thanksgiving"), -25, -3))
one("named", ALL, ANY, "A", "mothering sunday lunch booked for 12:30", nf("mothering", "12:30"), "UK mothering sunday = easter-21", near=(A_("mothering"), -20, -3))
one("named", ALL, ANY, "A", "christmas eve eve is our tradition, pub at 7", nf("xmas_eve_eve", "19:00"), "12-23 19:00", near=(A_("xmas_eve_eve"), -20, -2))
one("named", ALL, ANY, "A", "the late may bank hol we're camping", nf("may_bh"), "late May bank holiday = last Mon of May", near=(A_("may_bh"), -30, -3))
one("named", ALL, ANY, "A", "had a quiet one on boxing day, just leftovers", np_("boxing"), "past boxing day", near=(A_("boxing"), 1, 10))
one("named", ALL, ANY, "A", "we'll call mom on mother's day (the us one)", nf("us_mothers"), "US mother's day = 2nd Sun May", near=(A_("us_mothers"), -20, -2))
one("named", ALL, ANY, "A", "nye was carnage, still hungover", np_("nye"), "past nye", near=(A_("nye"), 1, 2))
one("named", ALL, ANY, "A", "valentine's was a disaster, he forgot", np_("valentines"), "past valentine's", near=(A_("valentines"), 1, 6))
one("named", ALL, ANY, "A", "christmas day we're at the in-laws", nf("xmas"), "christmas", near=(A_("xmas"), -30, -5))

# ---- corrections (same speaker restates same event; distractor acks between)
C, X = "correction", "distractor"
chat(C, (FR, SA, SU, MO, TU), ANY,
     m("A", "drinks thurs at 7?", lambda s: g(nxt(s, TH), time="19:00"), "original", grp=C),
     m("B", "👍", None, "ack", grp=X),
     m("A", "sorry, meant weds at 7 - thurs is quiz", lambda s: g(nxt(s, WE), time="19:00"), "apology; corrected = weds 19:00", grp=C, corrects=0))
chat(C, ALL, DAY,
     m("A", "meeting tmrw at 10", lambda s: g(s + TD(1), time="10:00"), "original", grp=C),
     m("A", "update: it's 11 now", lambda s: g(s + TD(1), time="11:00"), "'update:'; same day (tmrw) carries, 11:00", grp=C, corrects=0))
chat(C, ALL, ANY,
     m("A", "lunch on the 14th?", lambda s: g(dom_future(s, 14)), "original, this month", grp=C),
     m("B", "sounds good", None, "ack", grp=X),
     m("A", "hmm actually no, the 15th, im at the dentist on the 14th", lambda s: g(dom_future(s, 15)), "actually; the lunch = the 15th", grp=C, corrects=0))
CHATS[-1]["chk"] = lambda s: 2 <= s.day <= 10
chat(C, MOTH, ANY,
     m("A", "bday drinks sat from 8!", lambda s: g(nxt(s, SA), time="20:00"), "original", grp=C),
     m("B", "yesss", None, "ack", grp=X),
     m("A", "wait its sunday not saturday, still 8, sorry all", lambda s: g(nxt(s, SU), time="20:00"), "wait; sunday 20:00", grp=C, corrects=0))
chat(C, not_(FR), ANY,
     m("A", "cinema fri 6.15", lambda s: g(nxt(s, FR), time="18:15"), "original", grp=C),
     m("A", "6.45*", lambda s: g(nxt(s, FR), time="18:45"), "no cue, asterisk; day carries over", grp=C, corrects=0))
chat(C, ALL, EVE,
     m("A", "train gets in 17:20 tmrw", lambda s: g(s + TD(1), time="17:20"), "original", grp=C),
     m("B", "ok will pick u up", None, "ack", grp=X),
     m("A", "ah no its 17:50, misread the ticket", lambda s: g(s + TD(1), time="17:50"), "no apology cue; same day", grp=C, corrects=0))
chat(C, after(TU)[:-1], ANY,
     m("A", "next tues for the haircut ok?", lambda s: g(nextweek(s, TU)), "original; sent Wed-Sat", grp=C),
     m("B", "yep", None, "ack", grp=X),
     m("A", "scratch that, the tues after", lambda s: g(nextweek(s, TU) + TD(7)), "'scratch that'; the tues after next tues = +7", grp=C, corrects=0))
chat(C, ALL, ANY,
     m("A", "dinner 12/4?", lambda s: g(dm_future(s, 12, 4)), "original 12 April", grp=C),
     m("A", "sorry 13/4!!", lambda s: g(dm_future(s, 13, 4)), "apology; 13 April", grp=C, corrects=0),
     near=(dm(12, 4), -20, -3))
chat(C, not_(SU), ANY,
     m("A", "footy sun at 10", lambda s: g(nxt(s, SU), time="10:00"), "original", grp=C),
     m("B", "cool cool", None, "ack", grp=X),
     m("A", "erm... i think its 11 not 10 actually. yeah 11", lambda s: g(nxt(s, SU), time="11:00"), "hesitation; sun 11:00", grp=C, corrects=0))
chat(C, (MO, TU, WE), ANY,
     m("A", "quiz is thursday", lambda s: g(nxt(s, TH)), "original", grp=C),
     m("B", "nice", None, "ack", grp=X),
     m("A", "no wait, its thursday week, not this one", lambda s: g(wk_after(s, TH)), "wait; thursday week", grp=C, corrects=0))
chat(C, (WE, TH, FR, SA), ANY,
     m("A", "the plumber comes monday at 8", lambda s: g(nxt(s, MO), time="08:00"), "original", grp=C),
     m("A", "update - tuesday at 8 now", lambda s: g(nxt(s, TU), time="08:00"), "update; tuesday 08:00", grp=C, corrects=0))
chat(C, ALL, ANY,
     m("A", "partys on the 21st", lambda s: g(dom_future(s, 21)), "original", grp=C),
     m("B", "👌", None, "ack", grp=X),
     m("A", "apologies all, typo - its the 22nd", lambda s: g(dom_future(s, 22)), "apology; the 22nd", grp=C, corrects=0))
CHATS[-1]["chk"] = lambda s: 3 <= s.day <= 18
chat(C, ALL, DAY,
     m("A", "brunch at 11 tmrw?", lambda s: g(s + TD(1), time="11:00"), "original", grp=C),
     m("B", "ok", None, "ack", grp=X),
     m("A", "actually can we make it 12", lambda s: g(s + TD(1), time="12:00"), "actually; tmrw 12:00", grp=C, corrects=0))
chat(C, ALL, ANY,
     m("A", "we land 6/7 at 9pm", lambda s: g(dm_future(s, 6, 7), time="21:00"), "original 6 July", grp=C),
     m("B", "safe travels!", None, "ack", grp=X),
     m("A", "sorry, 6/8 at 9. wrong month 🙈", lambda s: g(dm_future(s, 6, 8), time="21:00"), "apology; 6 Aug 21:00 (the landing time carries)", grp=C, corrects=0),
     near=(dm(6, 7), -25, -3))
chat(C, not_(SA), ANY,
     m("A", "see u at the match sat 3pm", lambda s: g(nxt(s, SA), time="15:00"), "original", grp=C),
     m("A", "ah its a 12:30 ko, tv moved it", lambda s: g(nxt(s, SA), time="12:30"), "no cue; sat 12:30", grp=C, corrects=0))
chat(C, not_(WE), ANY,
     m("A", "dentist is weds 2:30", lambda s: g(nxt(s, WE), time="14:30"), "original", grp=C),
     m("B", "ok", None, "ack", grp=X),
     m("B", "good luck lol", None, "ack", grp=X),
     m("A", "hang on, weds 3:30. cant read my own writing", lambda s: g(nxt(s, WE), time="15:30"), "hang on; weds 15:30", grp=C, corrects=0))

# ---- standalone distractors
one(X, ALL, ANY, "A", "finally finished wednesday on netflix, so good", lambda s: None, "'wednesday' is the show")
one(X, ALL, ANY, "A", "2/3 of the cake is gone already lmao", lambda s: None, "2/3 fraction")
one(X, ALL, ANY, "A", "may pop by, may not, we'll see how i feel", lambda s: None, "'may' modal")

# ---- questions
q(ALL, ANY, "what's on the 12th?", lambda s: g(dom_future(s, 12)), "coming 12th (this month)")
QUESTIONS[-1]["chk"] = lambda s: 1 <= s.day <= 9
q(upto(WE), ANY, "what did i do last weds?", lambda s: g(prv(s, WE)), "last weds (asked Mon-Wed)")
q(not_(TH), ANY, "anything on thursday?", lambda s: g(nxt(s, TH)), "coming thursday")
q(ALL, ANY, "when's the dentist?", lambda s: None, "no date")
q(MOTH, ANY, "what am i up to this weekend", lambda s: g(*weekend(s)), "upcoming weekend")
q(ALL, ANY, "what did we do 2 weeks ago", lambda s: g(s - TD(14)), "-14 single day")
q(ALL, EVE, "plans for tmrw?", lambda s: g(s + TD(1)), "+1")
q(ALL, ANY, "what happened on 3/5?", lambda s: g(dm_past(s, 3, 5)), "past 3 May", near=(dm(3, 5), 5, 40))
q(ALL, ANY, "whats on 17/9", lambda s: g(dm_future(s, 17, 9)), "coming 17 Sep", near=(dm(17, 9), -30, -3))
q(ALL, ANY, "did i have anything on yesterday", lambda s: g(s - TD(1)), "-1")
q(ALL, ANY, "whats happening next week", lambda s: g(*week_range(s, 1)), "following Mon-Sun")
q(upto(SA)[1:], ANY, "where was i last sat night", lambda s: g(prv(s, SA)), "last sat (asked Tue-Sat)")
q(ALL, ANY, "whats the plan for xmas", nf("xmas"), "xmas", near=(A_("xmas"), -30, -3))
q(MOTH, ANY, "who did i see at the weekend?", lambda s: g(*last_weekend(s)), "past weekend (asked Mon-Thu)")
q(ALL, ANY, "am i free on the 30th", lambda s: g(dom_future(s, 30)), "coming 30th this month")
QUESTIONS[-1]["chk"] = lambda s: 10 <= s.day <= 25 and s.month != 2
q(not_(FR), ANY, "whats on friday week", lambda s: g(wk_after(s, FR)), "friday week")
q(ALL, ANY, "what did i get up to in march", lambda s: g(*month_prev(s, 3)), "most recent march")
QUESTIONS[-1]["chk"] = lambda s: 4 <= s.month <= 8
q(ALL, ANY, "when did we last see gran?", lambda s: None, "no date")
q(ALL, ANY, "anything booked for the day after tomorrow?", lambda s: g(s + TD(2)), "+2")
q(not_(TU), ANY, "what was on tuesday", lambda s: g(prv(s, TU)), "past tuesday")
q(not_(SA), ANY, "what's on saturday after next", lambda s: g(wk_after(s, SA)), "coming sat + 7")
q(ALL, ANY, "what did i do on boxing day", np_("boxing"), "past boxing day", near=(A_("boxing"), 1, 30))
q(ALL, ANY, "when is tom's leaving do", lambda s: None, "no date")
q(ALL, ANY, "any plans next month?", lambda s: g(*month_next(s, s.month % 12 + 1)), "following calendar month")
q(ALL, ANY, "what did i do 3 days ago", lambda s: g(s - TD(3)), "-3")
q(ALL, ANY, "whats on easter monday", nf("easter_monday"), "easter monday", near=(A_("easter_monday"), -30, -3))
q(ALL, ANY, "what was i doing last week", lambda s: g(*week_range(s, -1)), "previous Mon-Sun")
q(after(TU), ANY, "whats on next tues", lambda s: g(nextweek(s, TU)), "next tues (asked Wed-Sun = next occurrence)")
q(ALL, (9, 17), "whats happening tonight", lambda s: g(s), "today")
q(not_(SU), ANY, "where am i going sunday", lambda s: g(nxt(s, SU)), "coming sunday")


# --------------------------------------------------------------- generation
CONVENTIONS = {
    "gold_format": "gold is {start, end} ISO dates inclusive (single day: start == end), plus optional time HH:MM (24h, naive local) when the message/question gives a clock time (or, in a chat, when the time clearly carries over from the event being discussed); null when there is no date to extract.",
    "what_gold_means": "the date (range) when the thing referred to happens/happened; with an old and a new time (reschedules, corrections, availability 'can't do X, free Y'), gold is the new/operative time.",
    "bare_weekday_future": "bare weekday in a plan = next occurrence strictly after the send date (same-weekday sends avoided).",
    "bare_weekday_past": "bare weekday in a past-tense message = most recent occurrence strictly before the send date.",
    "last_weekday": "'last sat' = most recent Saturday strictly before the send date (sends chosen so it is also last week's).",
    "this_weekday": "'this sat' = the Saturday of the current Mon-Sun week, strictly after today.",
    "next_weekday": "'next tues' = Tuesday of the following Mon-Sun week; chosen to coincide with next occurrence unless the note says it is contrasted.",
    "weekday_next_week": "'thursday next week' = Thursday of the following Mon-Sun week.",
    "thursday_week": "'thursday week' / 'sat week' = coming weekday + 7; 'saturday after next' = coming Saturday + 7.",
    "this_weekend": "'this weekend' (sent Mon-Thu) = upcoming Sat-Sun; 'the weekend after (next)' = upcoming weekend + 7.",
    "last_weekend": "'last weekend' / 'at the weekend' past tense = most recent Sat-Sun before the send date; 'weekend before last' = that - 7.",
    "weeks": "'next week' / 'last week' = following / previous Mon-Sun week; 'thurs last week' = Thursday of the previous week.",
    "months": "month name alone = whole month (next occurrence future, most recent past); 'next month' = following calendar month.",
    "relative_days": "tmrw/2moro = +1, day after tmrw = +2, yesterday/yday = -1, 'N days/weeks ago' = single day, 'in N days/weeks' = +N, fortnight = 14 days, British 'a week tomorrow' = +8.",
    "day_of_month": "'the 28th' = next date with that day-of-month strictly after (future) / most recent strictly before (past).",
    "numeric": "numeric dates are DAY-FIRST (dd/mm, dd.mm, d/m/yy); yy = 20yy; without year next occurrence (future) or most recent (past); 'a-b/m' ranges give start/end.",
    "named_days": "as in benchmarks/data/times/README.md (xmas 12-25, xmas eve 12-24, xmas eve eve 12-23, boxing 12-26, nye 12-31, new year's day 01-01, halloween 10-31, valentine's 02-14, easter by Gregorian computus, good friday -2, easter monday +1, UK August bank holiday = last Mon Aug, late May bank holiday = last Mon May, US thanksgiving 4th Thu Nov, mothering sunday easter-21, US mother's day 2nd Sun May); future on/after send date, past most recent before.",
    "late_night": "small-hours time (00:00-05:59) mentioned in the evening = next calendar day; sent 00:00-03:59 by someone who hasn't slept: 'tmrw' = same calendar date.",
    "clock_times": "bare hours read the natural way for the activity (dinner at 7 = 19:00); durations (4:12 marathon), ratings (10/10), placings (2nd), fractions (2/3) are not dates/times.",
    "questions": "question gold follows the same rules relative to the asked datetime; no date = null.",
    "distractors": "messages with no date to extract (acknowledgements, 'wednesday' the show, 'may' modal, '2/3' fraction) have gold null and group 'distractor'.",
}

NAMES = ["amy", "raj", "sophie", "kez", "dan", "priya", "tom", "ellie", "mo", "gemma", "liam", "zara",
         "olu", "beth", "craig", "niamh", "sami", "jo", "femi", "hannah", "ross", "aisha", "will", "kat"]


def pick_date(rng, wds, near, chk):
    for _ in range(100000):
        if near:
            anchor, lo, hi = near
            y = rng.randint(2023, 2026)
            d = anchor(y) + TD(rng.randint(lo, hi))
        else:
            d = FIRST + TD(rng.randint(0, (LAST - FIRST).days))
        if FIRST <= d <= LAST and d.weekday() in wds and (chk is None or chk(d)):
            return d
    raise RuntimeError("no date for constraint")


def build():
    rng = random.Random(SEED)
    messages, units = [], []
    mid = 0
    for ci, c in enumerate(CHATS, 1):
        cid = "c%03d" % ci
        d = pick_date(rng, c["wds"], c["near"], c.get("chk"))
        n = len(c["msgs"])
        t = dt.datetime.combine(d, dt.time(rng.randint(*c["hrs"]), rng.randint(0, 59 - 12 * (n - 1))))
        a, b = rng.sample(NAMES, 2)
        ids = []
        grp = c["group"]
        for k, x in enumerate(c["msgs"]):
            if k:
                t += TD(minutes=rng.randint(1, 12))
            assert t.date() == d
            mid += 1
            ids.append("m%03d" % mid)
            gold = x["gold"](d) if x["gold"] else None
            rec = {"id": ids[-1], "chat": cid, "group": x["grp"] or grp,
                   "sent": t.strftime("%Y-%m-%dT%H:%M"), "speaker": a if x["spk"] == "A" else b,
                   "text": x["text"], "gold": gold, "note": x["note"]}
            if x["corrects"] is not None:
                rec["corrects"] = ids[x["corrects"]]
                assert c["msgs"][x["corrects"]]["spk"] == x["spk"]
            messages.append(rec)
        primary = "correction" if any(x["grp"] == "correction" for x in c["msgs"]) else (c["msgs"][0]["grp"] or grp)
        units.append((primary, cid))
    questions = []
    for qi, x in enumerate(QUESTIONS, 1):
        d = pick_date(rng, x["wds"], x["near"], x.get("chk"))
        t = dt.datetime.combine(d, dt.time(rng.randint(*x["hrs"]), rng.randint(0, 59)))
        qid = "q%03d" % qi
        questions.append({"id": qid, "group": "question", "asked": t.strftime("%Y-%m-%dT%H:%M"),
                          "text": x["text"], "gold": x["gold"](d), "note": x["note"]})
        units.append(("question", qid))
    # split: whole chats / single questions, stratified by primary group
    srng = random.Random(SEED + 1)
    dev_units = set()
    for grp in sorted({u[0] for u in units}):
        stratum = [u[1] for u in units if u[0] == grp]
        srng.shuffle(stratum)
        dev_units.update(stratum[:round(len(stratum) / 3)])
    return messages, questions, dev_units


def counts(msgs, qs):
    by = {}
    for x in msgs + qs:
        by[x["group"]] = by.get(x["group"], 0) + 1
    return {"messages": len(msgs), "chats": len({x["chat"] for x in msgs}), "questions": len(qs),
            "distinct_days": len({x["sent"][:10] for x in msgs} | {x["asked"][:10] for x in qs}),
            "by_group": dict(sorted(by.items()))}


def dump(name, msgs, qs):
    data = {"conventions": CONVENTIONS, "counts": counts(msgs, qs), "messages": msgs, "questions": qs}
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=1)
        f.write("\n")
    return data["counts"]


def main():
    msgs, qs, dev_units = build()
    texts = [x["text"] for x in msgs if x["group"] != "distractor"] + [x["text"] for x in qs]
    assert len(set(texts)) == len(texts), "duplicate wording"
    assert len(set(x["text"] for x in msgs + qs)) >= 150
    assert len(msgs) >= 180 and len(qs) >= 24
    assert len({x["sent"][:10] for x in msgs}) >= 60
    dev_m = [x for x in msgs if x["chat"] in dev_units]
    test_m = [x for x in msgs if x["chat"] not in dev_units]
    dev_q = [x for x in qs if x["id"] in dev_units]
    test_q = [x for x in qs if x["id"] not in dev_units]
    cd = dump("dev.json", dev_m, dev_q)
    ct = dump("test.json", test_m, test_q)
    ca = dump("all.json", msgs, qs)
    groups = sorted(ca["by_group"])
    print("| group | dev | test | total |\n|---|---|---|---|")
    for gname in groups:
        print("| %s | %d | %d | %d |" % (gname, cd["by_group"].get(gname, 0), ct["by_group"].get(gname, 0), ca["by_group"][gname]))
    print("| **total** | %d | %d | %d |" % (len(dev_m) + len(dev_q), len(test_m) + len(test_q), len(msgs) + len(qs)))
    print("messages %d in %d chats, questions %d, distinct days (msgs) %d, range %s .. %s" % (
        len(msgs), ca["chats"], len(qs), len({x["sent"][:10] for x in msgs}),
        min(x["sent"][:10] for x in msgs), max(x["sent"][:10] for x in msgs)))


if __name__ == "__main__":
    main()
