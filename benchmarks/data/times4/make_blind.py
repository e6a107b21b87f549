#!/usr/bin/env python3
"""Build the fourth blind set of chat messages with gold dates (times4).

Stdlib only, deterministic (seeded). Every gold date is COMPUTED here from the
message's send datetime by the helper functions below; none is typed by hand.
Written without reading the package's code, tests or other data sets.

    python3 make_blind.py            # writes dev.json, test.json, all.json here
"""
import calendar
import json
import os
import random
from datetime import date, datetime, timedelta

SEED = 20261205
OUT = os.path.dirname(os.path.abspath(__file__))
START, END = date(2023, 1, 1), date(2026, 12, 31)
MON, TUE, WED, THU, FRI, SAT, SUN = range(7)

# ---------------------------------------------------------------- gold helpers


def g(d, t=None):
    out = {"start": d.isoformat(), "end": d.isoformat()}
    if t:
        out["time"] = t
    return out


def gr(a, b):
    return {"start": a.isoformat(), "end": b.isoformat()}


def D(s):
    return s.date()


def plus(s, n):
    return D(s) + timedelta(days=n)


def nxt(s, wd):
    """next occurrence of weekday wd strictly after the send date"""
    k = (wd - D(s).weekday()) % 7 or 7
    return D(s) + timedelta(days=k)


def lst(s, wd):
    """most recent occurrence of weekday wd strictly before the send date"""
    k = (D(s).weekday() - wd) % 7 or 7
    return D(s) - timedelta(days=k)


def this_weekend(s):
    sat = nxt(s, SAT)
    return gr(sat, sat + timedelta(days=1))


def last_weekend(s):
    sat = lst(s, SAT)
    return gr(sat, sat + timedelta(days=1))


def next_week(s):
    mon = D(s) - timedelta(days=D(s).weekday()) + timedelta(days=7)
    return gr(mon, mon + timedelta(days=6))


def last_week(s):
    mon = D(s) - timedelta(days=D(s).weekday()) - timedelta(days=7)
    return gr(mon, mon + timedelta(days=6))


def wd_next_week(s, wd):
    mon = D(s) - timedelta(days=D(s).weekday()) + timedelta(days=7)
    return mon + timedelta(days=wd)


def month_range(y, m):
    return gr(date(y, m, 1), date(y, m, calendar.monthrange(y, m)[1]))


def month_fut(s, m):
    y = D(s).year if m > D(s).month else D(s).year + 1
    return month_range(y, m)


def month_past(s, m):
    y = D(s).year if m < D(s).month else D(s).year - 1
    return month_range(y, m)


def dom_fut(s, n):
    d = D(s) + timedelta(days=1)
    while d.day != n:
        d += timedelta(days=1)
    return d


def dom_past(s, n):
    d = D(s) - timedelta(days=1)
    while d.day != n:
        d -= timedelta(days=1)
    return d


def md_fut(s, m, dd):
    """next date with month m, day dd strictly after the send date"""
    y = D(s).year
    if date(y, m, dd) <= D(s):
        y += 1
    return date(y, m, dd)


def md_past(s, m, dd):
    y = D(s).year
    if date(y, m, dd) >= D(s):
        y -= 1
    return date(y, m, dd)


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
    day = ((h + l_ - 7 * m + 114) % 31) + 1
    return date(y, month, day)


def easter_fut(s, off=0):
    """Easter-relative day, next occurrence on/after the send date"""
    y = D(s).year
    d = easter(y) + timedelta(days=off)
    if d < D(s):
        d = easter(y + 1) + timedelta(days=off)
    return d


def last_mon_aug(y):
    d = date(y, 8, 31)
    while d.weekday() != MON:
        d -= timedelta(days=1)
    return d


def thanksgiving(y):
    d = date(y, 11, 1)
    while d.weekday() != THU:
        d += timedelta(days=1)
    return d + timedelta(days=21)


# ---------------------------------------------------------------- conditions


def wd(*days):
    return lambda s: s.weekday() in days


def mo(*months):
    return lambda s: s.month in months


def dom(lo, hi):
    return lambda s: lo <= s.day <= hi


def between(m1, d1, m2, d2):
    """send month/day within [m1/d1, m2/d2] (same year)"""
    return lambda s: (m1, d1) <= (s.month, s.day) <= (m2, d2)


def yr(*years):
    return lambda s: s.year in years


def all_of(*cs):
    return lambda s: all(c(s) for c in cs)


ANY = lambda s: True  # noqa: E731

# ---------------------------------------------------------------- cases
# Each case: group, text, gold(send datetime), condition on the send datetime,
# send-hour range, note.  A chat is a list of cases; later messages carry
# "after" (minutes after the previous message of the chat).


def C(group, text, gold, cond=ANY, hours=(8, 21), note=""):
    return {"group": group, "text": text, "gold": gold, "cond": cond,
            "hours": hours, "note": note}


REL = "relative clause is background; main clause: "
SUB = "subordinate clause is background; main clause: "
ASIDE = "participle/adjectival aside is background; main clause: "
REQ = "request/question/arrangement to the reader wins: "
FIRST = "two main clauses, no request: the first (the news) wins: "

MIXED = [
    # ---- relative clauses
    C("mixed", "we're finally making that lasagne you sent me the recipe for on monday - thursday night probably",
      lambda s: g(nxt(s, THU)), wd(TUE, WED), note="recipe sent monday is background; plan: thursday"),
    C("mixed", "the guy who sorted our boiler last winter is coming on the 14th to look at the shower",
      lambda s: g(dom_fut(s, 14)), dom(1, 10), note=REL + "coming on the 14th"),
    C("mixed", "the jacket i ordered on tuesday is arriving tomorrow apparently",
      lambda s: g(plus(s, 1)), wd(WED, THU, FRI), note=REL + "arriving tomorrow"),
    C("mixed", "that band we saw in march are back at the roundhouse 23/10!!",
      lambda s: g(md_fut(s, 10, 23)), mo(4, 5, 6, 7, 8, 9), note=REL + "23/10 (day-first)"),
    C("mixed", "the flat i'm moving out of next month failed its gas check yesterday 🙄",
      lambda s: g(plus(s, -1)), ANY, note=REL + "failed ... yesterday"),
    C("mixed", "the dentist who did my filling in january has booked me in for 3 july",
      lambda s: g(md_fut(s, 7, 3)), mo(2, 3, 4, 5, 6), note=REL + "booked in for 3 july"),
    C("mixed", "the couple whose wedding we went to in may are having a housewarming on the 21st",
      lambda s: g(dom_fut(s, 21)), all_of(mo(6, 7, 8, 9, 10), dom(1, 15)), note=REL + "housewarming on the 21st"),
    C("mixed", "the parcel you posted on friday should get here monday",
      lambda s: g(nxt(s, MON)), wd(SAT, SUN), note=REL + "get here monday"),
    C("mixed", "the pottery course i signed up for in january starts on 4 march",
      lambda s: g(md_fut(s, 3, 4)), between(2, 1, 2, 28), note=REL + "starts on 4 march"),
    C("mixed", "the garage that serviced the car last month has got it in for its mot on the 30th",
      lambda s: g(dom_fut(s, 30)), all_of(dom(1, 25), mo(1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)),
      note=REL + "mot on the 30th"),
    C("mixed", "the tickets we got on sunday are for the 2pm showing on 3 may",
      lambda s: g(md_fut(s, 5, 3), "14:00"), all_of(between(3, 1, 4, 25), wd(MON, TUE, WED, THU, FRI)),
      note=REL + "showing on 3 may at 2pm"),
    C("mixed", "that plumber you put me onto last year is coming thursday at 8",
      lambda s: g(nxt(s, THU), "08:00"), wd(MON, TUE), note=REL + "coming thursday at 8 (a tradesman: morning)"),
    C("mixed", "the hotel i emailed yesterday has got a room for us 12-14 october",
      lambda s: gr(md_fut(s, 10, 12), md_fut(s, 10, 14)), mo(6, 7, 8, 9), note=REL + "room 12-14 october"),
    C("mixed", "the jumper nan knitted me last christmas is getting its first outing at the party on saturday",
      lambda s: g(nxt(s, SAT)), all_of(wd(MON, TUE, WED, THU), mo(1, 2, 3, 10, 11)), note=REL + "party on saturday"),
    C("mixed", "the quiz team that thrashed us in february want a rematch on the 27th",
      lambda s: g(dom_fut(s, 27)), all_of(mo(3, 4, 5, 6), dom(1, 22)), note=REL + "rematch on the 27th"),
    C("mixed", "the mate i went interrailing with back in 2019 is flying in on boxing day",
      lambda s: g(md_fut(s, 12, 26)), between(11, 1, 12, 20), note=REL + "flying in on boxing day"),
    C("mixed", "the paint we picked out on saturday is going on the walls tomorrow",
      lambda s: g(plus(s, 1)), wd(MON, TUE, WED), note=REL + "going on the walls tomorrow"),
    C("mixed", "the kid whose party ours went to last weekend is starting at her school on monday",
      lambda s: g(nxt(s, MON)), wd(TUE, WED, THU), note=REL + "starting on monday"),
    C("mixed", "that pub we ended up in on new year's eve is doing a quiz on the 18th, we should go",
      lambda s: g(dom_fut(s, 18)), between(1, 3, 1, 14), note=REL + "quiz on the 18th (the 'we should go' is about the same quiz)"),
    C("mixed", "the sofa we ordered in april is finally being delivered on 2 july",
      lambda s: g(md_fut(s, 7, 2)), between(5, 1, 6, 28), note=REL + "delivered on 2 july"),
    C("mixed", "after the chaos at the airport last summer i'm getting there 3 hours early on saturday",
      lambda s: g(nxt(s, SAT)), all_of(wd(MON, TUE, WED, THU), mo(1, 2, 3, 4, 5)), note=SUB + "getting there on saturday"),
    C("mixed", "since you missed thursday's session, the next one is sunday at 10",
      lambda s: g(nxt(s, SUN), "10:00"), wd(FRI, SAT), note=SUB + "next one sunday at 10"),
    C("mixed", "because the landlord ignored my email on monday, i'm ringing him first thing wednesday",
      lambda s: g(nxt(s, WED)), wd(TUE), note=SUB + "ringing him wednesday"),
    C("mixed", "now that the plumber finally came on tuesday we can host christmas here",
      lambda s: g(md_fut(s, 12, 25)), all_of(between(12, 3, 12, 20), wd(WED, THU, FRI, SAT)),
      note=SUB + "host christmas (12-25)"),
    C("mixed", "even though we only got back from spain on sunday i've booked us away again 8-12 august",
      lambda s: gr(md_fut(s, 8, 8), md_fut(s, 8, 12)), all_of(mo(3, 4, 5, 6, 7), wd(MON, TUE, WED, THU)),
      note=SUB + "away 8-12 august"),
    C("mixed", "if the parcel really did go out yesterday it'll land thursday",
      lambda s: g(nxt(s, THU)), wd(MON, TUE), note=SUB + "it'll land thursday"),
    C("mixed", "as we never finished the quiz on wednesday, round two is saturday night",
      lambda s: g(nxt(s, SAT)), wd(THU, FRI), note=SUB + "round two saturday night"),
    C("mixed", "after last night's disaster, date night is back on for friday",
      lambda s: g(nxt(s, FRI)), wd(MON, TUE, WED), hours=(8, 17), note=SUB + "date night friday"),
    C("mixed", "seeing as your mum's visit got called off at the weekend, fancy lunch wednesday?",
      lambda s: g(nxt(s, WED)), wd(MON, TUE), note=SUB + "lunch wednesday (also the request)"),
    C("mixed", "although the interview on monday was a car crash they've asked me back for a second one on the 9th",
      lambda s: g(dom_fut(s, 9)), all_of(dom(2, 7), wd(TUE, WED, THU, FRI)), note=SUB + "second interview on the 9th"),
    C("mixed", "unless the trains are as bad as they were yesterday i'll be at yours by 7 tomorrow evening",
      lambda s: g(plus(s, 1), "19:00"), ANY, note=SUB + "at yours by 7 tomorrow evening"),
    C("mixed", "since the results came out on the 1st, celebration meal is booked for saturday",
      lambda s: g(nxt(s, SAT)), all_of(dom(2, 7), wd(MON, TUE, WED, THU)), note=SUB + "meal on saturday"),
    C("mixed", "because i was off sick last week my appraisal's been pushed to the 24th",
      lambda s: g(dom_fut(s, 24)), dom(10, 20), note=SUB + "appraisal on the 24th"),
    C("mixed", "when you came round on tuesday you left your scarf - i'll drop it at yours on friday",
      lambda s: g(nxt(s, FRI)), wd(WED, THU), note=SUB + "drop it on friday"),
    C("mixed", "after what happened at christmas i'm doing easter at mine this year",
      lambda s: g(easter_fut(s)), between(1, 5, 3, 1), note=SUB + "easter (Easter Sunday)"),
    C("mixed", "even though we only moved in on the 1st we're throwing a party on the 16th",
      lambda s: g(dom_fut(s, 16)), dom(4, 12), note=SUB + "party on the 16th"),
    C("mixed", "since my passport ran out in january i've got an appointment at the passport office on 6 march",
      lambda s: g(md_fut(s, 3, 6)), between(2, 1, 3, 1), note=SUB + "appointment on 6 march"),
    C("mixed", "as the gig on friday got rained off they've moved it to 7 august",
      lambda s: g(md_fut(s, 8, 7)), all_of(mo(6, 7), wd(SAT, SUN, MON)), note=SUB + "moved to 7 august"),
    C("mixed", "cos i'm still knackered from the move on saturday, can we make it the 20th instead",
      lambda s: g(dom_fut(s, 20)), all_of(wd(MON, TUE), dom(3, 15)), note=SUB + "the 20th (also the request)"),
    # ---- participle / adjectival asides
    C("mixed", "skipping drinks on friday, still broke from the stag do last weekend",
      lambda s: g(nxt(s, FRI)), wd(MON, TUE, WED), note=ASIDE + "skipping drinks on friday"),
    C("mixed", "booked the vet for the 22nd, having noticed her limping on sunday",
      lambda s: g(dom_fut(s, 22)), all_of(wd(MON, TUE, WED, THU), dom(2, 18)), note=ASIDE + "vet on the 22nd"),
    C("mixed", "taking tuesday off, absolutely shattered from saturday's wedding",
      lambda s: g(nxt(s, TUE)), wd(SUN, MON), note=ASIDE + "taking tuesday off"),
    C("mixed", "off to lisbon on the 5th, having barely unpacked from cornwall last week lol",
      lambda s: g(dom_fut(s, 5)), dom(18, 27), note=ASIDE + "off on the 5th (next month)"),
    C("mixed", "doing the 10k on sunday, fresh off a cold that floored me all last week",
      lambda s: g(nxt(s, SUN)), wd(MON, TUE, WED, THU), note=ASIDE + "10k on sunday"),
    C("mixed", "seeing the consultant on the 11th, referred by my gp back in june",
      lambda s: g(dom_fut(s, 11)), all_of(mo(8, 9, 10), dom(1, 7)), note=ASIDE + "consultant on the 11th"),
    # ---- request / question / arrangement to the reader wins
    C("mixed", "we got the keys last thursday!! can you help us shift boxes on sunday?",
      lambda s: g(nxt(s, SUN)), wd(MON, TUE, WED), note=REQ + "help on sunday"),
    C("mixed", "mum's been home since yesterday - could you pop in on her thursday?",
      lambda s: g(nxt(s, THU)), wd(MON, TUE), note=REQ + "pop in thursday"),
    C("mixed", "kitchen got finished on the 2nd, want to come see it saturday?",
      lambda s: g(nxt(s, SAT)), all_of(dom(4, 12), wd(MON, TUE, WED, THU)), note=REQ + "come saturday"),
    C("mixed", "lost my keys on friday 🙃 any chance you could drop the spare round tomorrow?",
      lambda s: g(plus(s, 1)), wd(SUN, MON, TUE), note=REQ + "tomorrow"),
    C("mixed", "passed my driving test this morning!!! will you come out for a drive with me at the weekend?",
      lambda s: this_weekend(s), wd(MON, TUE, WED, THU), hours=(12, 21), note=REQ + "at the weekend (future: this weekend)"),
    C("mixed", "jo had the baby on monday! shall we go and see them next week?",
      lambda s: next_week(s), wd(TUE, WED, THU, FRI), note=REQ + "next week (following Mon-Sun week)"),
    C("mixed", "you left your charger here last night - grab it when you're over on the 28th?",
      lambda s: g(dom_fut(s, 28)), dom(2, 22), note=REQ + "on the 28th"),
    C("mixed", "our flight got cancelled yesterday so are you still ok to feed the cat 14-16 sept?",
      lambda s: gr(md_fut(s, 9, 14), md_fut(s, 9, 16)), between(8, 1, 9, 10), note=REQ + "feed the cat 14-16 sept"),
    C("mixed", "dad's op went fine on tuesday. could you give him a ring sunday afternoon?",
      lambda s: g(nxt(s, SUN)), wd(WED, THU, FRI), note=REQ + "ring sunday"),
    C("mixed", "interview yesterday went ok i think. could you look over my follow-up email tonight?",
      lambda s: g(D(s)), ANY, hours=(8, 16), note=REQ + "tonight = the send date"),
    C("mixed", "halloween was carnage lol. you coming to the fireworks on the 5th?",
      lambda s: g(dom_fut(s, 5)), between(11, 1, 11, 3), note=REQ + "fireworks on the 5th (november)"),
    C("mixed", "put the deposit down on the venue last week! can you keep 14 june free?",
      lambda s: g(md_fut(s, 6, 14)), mo(1, 2, 3, 4, 5), note=REQ + "keep 14 june free"),
    C("mixed", "the vet said on monday she's fine - can you walk her for me wednesday while i'm at work?",
      lambda s: g(nxt(s, WED)), wd(TUE), note=REQ + "walk her wednesday"),
    C("mixed", "ella turned 5 on saturday, are you free for cake at ours tomorrow?",
      lambda s: g(plus(s, 1)), wd(MON, TUE, WED), note=REQ + "cake tomorrow"),
    C("mixed", "the boiler finally got fixed this morning. would you be around to let the inspector in on the 12th?",
      lambda s: g(dom_fut(s, 12)), dom(2, 8), hours=(12, 20), note=REQ + "on the 12th"),
    # ---- two main clauses, no request: the first wins
    C("mixed", "got engaged on saturday!!! wedding probably the summer after next",
      lambda s: g(lst(s, SAT)), wd(SUN, MON, TUE, WED), note=FIRST + "engaged on saturday"),
    C("mixed", "finished the last round of chemo on friday 🎉 scans in three weeks",
      lambda s: g(lst(s, FRI)), wd(SUN, MON, TUE), note=FIRST + "finished on friday"),
    C("mixed", "sold the old car yesterday, picking up the new one on the 15th",
      lambda s: g(plus(s, -1)), dom(2, 12), note=FIRST + "sold yesterday"),
    C("mixed", "bella started nursery on monday, no tears! parents evening is in november",
      lambda s: g(lst(s, MON)), all_of(wd(TUE, WED, THU, FRI), mo(9, 10)), note=FIRST + "started on monday"),
    C("mixed", "handed my notice in this morning. last day will be 31 may",
      lambda s: g(D(s)), all_of(between(4, 1, 5, 20), wd(MON, TUE, WED, THU, FRI)), hours=(12, 21), note=FIRST + "notice this morning = send date"),
    C("mixed", "we had our 10 year anniversary on the 8th, celebrating properly in march",
      lambda s: g(dom_past(s, 8)), all_of(mo(1, 2), dom(10, 25)), note=FIRST + "anniversary on the 8th (this month)"),
    C("mixed", "our offer got accepted yesterday!! completion should be mid june",
      lambda s: g(plus(s, -1)), mo(2, 3, 4), note=FIRST + "accepted yesterday"),
    C("mixed", "raised £600 at the bake sale on sunday! doing it all again at easter",
      lambda s: g(lst(s, SUN)), all_of(wd(MON, TUE, WED), mo(10, 11, 1, 2)), note=FIRST + "bake sale on sunday"),
    C("mixed", "passed my viva this afternoon 🎓 graduation is 18 july",
      lambda s: g(D(s)), mo(1, 2, 3, 4, 5, 6), hours=(16, 22), note=FIRST + "viva this afternoon = send date"),
    C("mixed", "charlie lost his first tooth last night, dentist check-up on tuesday anyway",
      lambda s: g(plus(s, -1)), wd(WED, THU, FRI, SAT), hours=(7, 12), note=FIRST + "last night (sent in the morning) = yesterday"),
    C("mixed", "got the all-clear from the doctor yesterday so back to five-a-side on thursday",
      lambda s: g(plus(s, -1)), wd(MON, TUE), note=FIRST + "all-clear yesterday"),
    C("mixed", "my sister landed in sydney this morning and i fly out to join her on the 30th",
      lambda s: g(D(s)), dom(3, 20), hours=(12, 22), note=FIRST + "landed this morning = send date"),
    C("mixed", "the new boiler went in on wednesday. first proper service is due next october",
      lambda s: g(lst(s, WED)), all_of(wd(THU, FRI, SAT), mo(1, 2, 3, 4, 5)), note=FIRST + "went in on wednesday"),
]

PLAN = [
    C("plan", "dinner at ours thursday? 7ish", lambda s: g(nxt(s, THU), "19:00"), wd(MON, TUE), note="bare weekday, future"),
    C("plan", "shall we do the big shop tmrw morning", lambda s: g(plus(s, 1)), note="tmrw = +1"),
    C("plan", "picnic this saturday if the weather holds", lambda s: g(nxt(s, SAT)), wd(MON, TUE, WED, THU),
      note="this sat = the coming Saturday of this week"),
    C("plan", "drinks next week sometime? free most evenings", lambda s: next_week(s), note="next week = following Mon-Sun"),
    C("plan", "cinema on the 11th? there's an 8:15 showing", lambda s: g(dom_fut(s, 11), "20:15"), dom(1, 6),
      note="day of month, future; 8:15 film = evening"),
    C("plan", "meet you at the station at half 9 on sunday", lambda s: g(nxt(s, SUN), "09:30"), wd(MON, TUE, WED, THU),
      note="half 9 = 09:30 (a morning meet-up)"),
    C("plan", "coming up to see you in 2 weeks, can't wait", lambda s: g(plus(s, 14)), note="in 2 weeks = +14"),
    C("plan", "book club is the day after tomorrow, 6:30pm at mine", lambda s: g(plus(s, 2), "18:30"), note="day after tomorrow = +2"),
    C("plan", "lido on wednesday at 7am?", lambda s: g(nxt(s, WED), "07:00"), wd(SAT, SUN, MON), note="bare weekday, future"),
    C("plan", "fancy a walk this weekend?", lambda s: this_weekend(s), wd(MON, TUE, WED, THU), note="this weekend (sent Mon-Thu)"),
    C("plan", "parents evening is tuesday at 4.45", lambda s: g(nxt(s, TUE), "16:45"), wd(WED, THU, FRI),
      note="4.45 after school = 16:45"),
    C("plan", "we're off to the lakes in august", lambda s: month_fut(s, 8), mo(1, 2, 3, 4, 5, 6), note="month name alone = whole month"),
    C("plan", "come round tonight at 8 for the match", lambda s: g(D(s), "20:00"), hours=(9, 16), note="tonight = send date"),
    C("plan", "i'll pick you up at 6am tomorrow for the airport", lambda s: g(plus(s, 1), "06:00"), hours=(9, 21), note="tomorrow 06:00"),
]

RESCHEDULE = [
    C("reschedule", "can we move friday's dinner to saturday instead?", lambda s: g(nxt(s, SAT)), wd(MON, TUE, WED),
      note="new time saturday"),
    C("reschedule", "dentist rang, my appointment on the 12th is now the 19th", lambda s: g(dom_fut(s, 19)), dom(1, 8),
      note="new time the 19th"),
    C("reschedule", "sorry thursday's a no-go now, can we do monday?", lambda s: g(nxt(s, MON)), wd(TUE, WED),
      note="new time: the coming monday"),
    C("reschedule", "the party's been pushed back a week, it's 21 october now", lambda s: g(md_fut(s, 10, 21)),
      between(9, 1, 10, 10), note="new date 21 october"),
    C("reschedule", "meeting tomorrow's moved from 2 to 3:30", lambda s: g(plus(s, 1), "15:30"), note="tomorrow, new time 15:30"),
    C("reschedule", "gig's been postponed from 3 march to 17 may 😭", lambda s: g(md_fut(s, 5, 17)), between(1, 2, 2, 28),
      note="new date 17 may"),
    C("reschedule", "change of plan: bbq is sunday not saturday", lambda s: g(nxt(s, SUN)), wd(MON, TUE, WED, THU),
      note="new time: the coming sunday"),
    C("reschedule", "can we push the call to wednesday next week?", lambda s: g(wd_next_week(s, WED)), ANY,
      note="wednesday of the following Mon-Sun week"),
    C("reschedule", "they've brought the delivery forward to tomorrow instead of friday", lambda s: g(plus(s, 1)), wd(MON, TUE),
      note="new time tomorrow"),
    C("reschedule", "the 10th doesn't work for me any more, how about the 13th?", lambda s: g(dom_fut(s, 13)), dom(1, 7),
      note="new time the 13th"),
    C("reschedule", "brunch on sunday is at 11 now not 10", lambda s: g(nxt(s, SUN), "11:00"), wd(MON, TUE, WED, THU),
      note="sunday, new time 11:00"),
    C("reschedule", "flights changed, we now land on the 4th instead of the 2nd", lambda s: g(dom_fut(s, 4)), dom(20, 27),
      note="new date the 4th (next month)"),
]

REPORT = [
    C("report", "had the best day at the zoo on saturday", lambda s: g(lst(s, SAT)), wd(MON, TUE, WED), note="bare weekday, past"),
    C("report", "someone broke into my car last night", lambda s: g(plus(s, -1)), hours=(7, 12), note="last night, sent in the morning = yesterday"),
    C("report", "we finally painted the hallway last weekend", lambda s: last_weekend(s), wd(MON, TUE, WED, THU), note="last weekend"),
    C("report", "bumped into sam at the big tesco on tuesday", lambda s: g(lst(s, TUE)), wd(WED, THU, FRI), note="bare weekday, past"),
    C("report", "kids had their jabs three days ago and they're fine now", lambda s: g(plus(s, -3)), note="3 days ago"),
    C("report", "we got back from france on the 2nd", lambda s: g(dom_past(s, 2)), dom(5, 15), note="day of month, past"),
    C("report", "started the new job last week, so far so good", lambda s: last_week(s), note="last week = previous Mon-Sun"),
    C("report", "it snowed loads here in january", lambda s: month_past(s, 1), mo(2, 3), note="month, past"),
    C("report", "grandad had a fall yesterday but he's ok", lambda s: g(plus(s, -1)), note="yesterday"),
    C("report", "lily took her first steps two weeks ago!", lambda s: g(plus(s, -14)), note="2 weeks ago = -14"),
    C("report", "we tried that new thai place on friday, sooo good", lambda s: g(lst(s, FRI)), wd(SUN, MON, TUE), note="bare weekday, past"),
    C("report", "power cut out at 6 this evening, still nothing", lambda s: g(D(s), "18:00"), hours=(20, 22), note="this evening at 6 = 18:00 today"),
]

NUMERIC = [
    C("numeric", "booked the hotel for 14/08", lambda s: g(md_fut(s, 8, 14)), mo(3, 4, 5, 6, 7), note="dd/mm, future"),
    C("numeric", "flight's on 03/02/25", lambda s: g(date(2025, 2, 3)), all_of(yr(2024), mo(10, 11, 12)), note="dd/mm/yy"),
    C("numeric", "party's at ours 7.6", lambda s: g(md_fut(s, 6, 7)), mo(3, 4, 5), note="dd.mm, future"),
    C("numeric", "we went on 21/3 and it was rammed", lambda s: g(md_past(s, 3, 21)), mo(4, 5, 6, 7, 8), note="d/m, past"),
    C("numeric", "rent's due 1/9", lambda s: g(md_fut(s, 9, 1)), mo(7, 8), note="d/m, future"),
    C("numeric", "holiday 22-29/7 🏖️", lambda s: gr(md_fut(s, 7, 22), md_fut(s, 7, 29)), mo(1, 2, 3, 4, 5, 6), note="numeric range"),
    C("numeric", "the invoice from 05/01 still hasn't been paid", lambda s: g(md_past(s, 1, 5)), mo(2, 3), note="dd/mm, past"),
    C("numeric", "course starts 12/09/2026", lambda s: g(date(2026, 9, 12)), all_of(yr(2026), mo(1, 2, 3, 4, 5, 6, 7, 8)), note="dd/mm/yyyy"),
    C("numeric", "gig on 30/11 anyone?", lambda s: g(md_fut(s, 11, 30)), between(9, 1, 11, 20), note="dd/mm, future"),
    C("numeric", "moving 15.10 apparently", lambda s: g(md_fut(s, 10, 15)), mo(7, 8, 9), note="dd.mm, future"),
    C("numeric", "my birthday was 2/4, still waiting on that card 😂", lambda s: g(md_past(s, 4, 2)), between(4, 10, 5, 20), note="d/m, past"),
    C("numeric", "physio 9/5 at 10:40", lambda s: g(md_fut(s, 5, 9), "10:40"), mo(3, 4), note="day-first: 9 may"),
    C("numeric", "exams 3/6 to 14/6, then freedom", lambda s: gr(md_fut(s, 6, 3), md_fut(s, 6, 14)), mo(4, 5), note="numeric range"),
]

NAMED = [
    C("named", "you doing anything christmas eve?", lambda s: g(md_fut(s, 12, 24)), between(11, 1, 12, 20), note="christmas eve, future"),
    C("named", "we're away over easter monday", lambda s: g(easter_fut(s, 1)), mo(1, 2, 3), note="easter monday = easter + 1"),
    C("named", "boxing day walk as usual?", lambda s: g(md_fut(s, 12, 26)), between(12, 1, 12, 20), note="boxing day"),
    C("named", "nye at ours this year", lambda s: g(md_fut(s, 12, 31)), between(10, 1, 12, 20), note="nye = 12-31"),
    C("named", "what did you end up doing for halloween?", lambda s: g(md_past(s, 10, 31)), between(11, 2, 11, 20), note="halloween, past"),
    C("named", "good friday off work 🙌", lambda s: g(easter_fut(s, -2)), mo(2, 3), note="good friday = easter - 2"),
    C("named", "valentine's is sorted, table booked", lambda s: g(md_fut(s, 2, 14)), between(1, 15, 2, 10), note="valentine's = 02-14"),
    C("named", "mothering sunday lunch at the pub - you in?", lambda s: g(easter_fut(s, -21)),
      all_of(mo(1, 2), lambda s: easter_fut(s, -21) - D(s) >= timedelta(days=5)), note="UK mothering sunday = easter - 21"),
    C("named", "bank holiday monday bbq, august one, save the date", lambda s: g(last_mon_aug(D(s).year)),
      between(6, 1, 8, 10), note="UK August bank holiday = last monday of august"),
    C("named", "had a lovely quiet christmas thanks, you?", lambda s: g(md_past(s, 12, 25)),
      lambda s: (s.month == 12 and s.day >= 27) or (s.month == 1 and s.day <= 8), note="christmas, past"),
    C("named", "new year's day swim again?", lambda s: g(md_fut(s, 1, 1)), between(12, 1, 12, 28), note="new year's day, future"),
    C("named", "thanksgiving at my cousin's in ohio this year", lambda s: g(thanksgiving(D(s).year)), between(9, 1, 11, 15),
      note="US thanksgiving = 4th thursday of november"),
]

# chats of more than one message (plan, then the reader moves it)
CHATS = [
    [C("plan", "tennis tuesday at 6?", lambda s: g(nxt(s, TUE), "18:00"), wd(FRI, SAT, SUN), hours=(9, 18), note="bare weekday, future; 6 = evening"),
     dict(C("reschedule", "can't do tuesday now, wednesday same time?", lambda s: g(nxt(s, WED), "18:00"),
            note="new day wednesday, time carries over 18:00"), after=45)],
    [C("plan", "lunch on the 15th?", lambda s: g(dom_fut(s, 15)), dom(1, 10), hours=(9, 18), note="day of month, future"),
     dict(C("reschedule", "actually could we make it the 16th", lambda s: g(dom_fut(s, 16)), note="new date the 16th"), after=30)],
    [C("plan", "quiz at the anchor thursday, 8pm", lambda s: g(nxt(s, THU), "20:00"), wd(MON, TUE), hours=(9, 18), note="bare weekday"),
     dict(C("reschedule", "they've moved it to friday this week, same time", lambda s: g(nxt(s, FRI), "20:00"),
            note="new day friday, time carries over"), after=180)],
]

SPEAKERS = ["Amy", "Ben", "Chloe", "Dan", "Esme", "Femi", "Gus", "Hana", "Isla", "Jay", "Kit", "Leo", "Maya", "Nico",
            "Omar", "Priya", "Rosa", "Sami", "Tom", "Zoe"]

CONVENTIONS = {
    "gold_format": "gold is {start, end} ISO dates inclusive (single day: start == end), plus optional time HH:MM "
                   "(24h, timezone-naive local) when the message gives a clock time (or, in a chat, when it clearly "
                   "carries over from the earlier message); null when there is no date.",
    "what_gold_means": "the date (range) when the thing referred to happens/happened. For reschedules gold is the "
                       "new/operative time.",
    "mixed_main_clause": "A 'mixed' message names a past time and a future time (or two times). Gold is the time of the "
                         "MAIN clause. A time inside a relative clause ('the X I did on monday is on the 14th'), a "
                         "subordinate clause (after/since/because/although/if/when/as/now that/unless/once ...) or a "
                         "participle/adjectival aside (', having done X last week', ', still broke from X') is background "
                         "and never the gold. Of two main clauses or sentences, a request, question or arrangement "
                         "addressed to the reader wins; otherwise the first one wins (the news is told first).",
    "bare_weekday_future": "A bare weekday in a future/plan clause = the next occurrence strictly after the send date "
                           "(the send weekday itself is avoided).",
    "bare_weekday_past": "A bare weekday in a past-tense clause = the most recent occurrence strictly before the send date; "
                         "'last thursday' likewise (used only where it means the previous week's one).",
    "this_weekday": "'this sat' = the coming Saturday of the current Mon-Sun week.",
    "weekday_next_week": "'wednesday next week' = that weekday of the following Mon-Sun week.",
    "weekends": "'this weekend' / 'at the weekend' in a future clause (sent Mon-Thu) = the coming Saturday-Sunday; "
                "'last weekend' (sent Mon-Thu) = the most recent Saturday-Sunday.",
    "weeks": "'next week' / 'last week' = the following / previous Mon-Sun week as a range.",
    "months": "a month name alone = the whole month (next occurrence for future, most recent for past).",
    "relative_days": "'tmrw'/'tomorrow' = +1, 'day after tomorrow' = +2, 'yesterday' = -1, 'N days/weeks ago' = one day, "
                     "'in 2 weeks' = +14; 'tonight', 'this morning', 'this afternoon', 'this evening' = the send date; "
                     "'last night' in a message sent in the morning = the day before.",
    "day_of_month": "'the 14th' without a month = the next date with that day strictly after the send date (future) or "
                    "the most recent one strictly before (past); it may fall in the next/previous month.",
    "numeric": "numeric dates are DAY-FIRST (dd/mm, d/m, dd.mm, dd/mm/yy, dd/mm/yyyy); two-digit years are 20yy; "
               "without a year: next occurrence strictly after the send date (future) or most recent before (past); "
               "'22-29/7' and '3/6 to 14/6' are ranges.",
    "named_days": "christmas=12-25, christmas eve=12-24, boxing day=12-26, nye=12-31, new year's day=01-01, "
                  "halloween=10-31, valentine's=02-14, fireworks/bonfire night=11-05, easter = Easter Sunday (Gregorian), "
                  "good friday = easter-2, easter monday = easter+1, UK mothering sunday = easter-21, UK August bank "
                  "holiday monday = last Monday of August, US thanksgiving = 4th Thursday of November; future mentions: "
                  "next occurrence on/after the send date, past mentions: most recent before.",
    "clock_times": "bare hours are read the natural way for the activity (dinner 7ish -> 19:00; a tradesman at 8 -> "
                   "08:00; 'half 9' -> 09:30; tennis at 6 after work -> 18:00).",
}


def pick_send(rng, case):
    span = (END - START).days
    for _ in range(200000):
        d = START + timedelta(days=rng.randrange(span + 1))
        lo, hi = case["hours"]
        s = datetime(d.year, d.month, d.day, rng.randint(lo, hi), rng.choice([0, 5, 12, 18, 24, 31, 37, 43, 49, 56]))
        if case["cond"](s):
            return s
    raise SystemExit("no send date satisfies: " + case["text"])


def build():
    rng = random.Random(SEED)
    units = [[c] for c in MIXED + PLAN + RESCHEDULE + REPORT + NUMERIC + NAMED] + CHATS
    rng.shuffle(units)
    messages, chats = [], []
    for ci, unit in enumerate(units, 1):
        chat_id = "b4c%03d" % ci
        speakers = rng.sample(SPEAKERS, 2)
        s = None
        msgs = []
        for k, case in enumerate(unit):
            s = pick_send(rng, case) if k == 0 else s + timedelta(minutes=case["after"])
            msgs.append({
                "id": None, "chat": chat_id, "group": case["group"], "sent": s.strftime("%Y-%m-%dT%H:%M"),
                "speaker": speakers[k % 2], "text": case["text"], "gold": case["gold"](s), "note": case["note"],
            })
        chats.append((chat_id, unit[0]["group"], msgs))
    for n, m in enumerate((m for _, _, ms in chats for m in ms), 1):
        m["id"] = "b4m%03d" % n
        messages.append(m)
    # split by whole chats, stratified by the chat's first message's group
    strata = {}
    for chat_id, grp, _ in chats:
        strata.setdefault(grp, []).append(chat_id)
    dev_chats = set()
    srng = random.Random(SEED + 1)
    for grp in sorted(strata):
        ids = sorted(strata[grp])
        srng.shuffle(ids)
        dev_chats.update(ids[:round(len(ids) / 3)])
    return messages, dev_chats


def counts(msgs):
    by = {}
    for m in msgs:
        by[m["group"]] = by.get(m["group"], 0) + 1
    return {"messages": len(msgs), "questions": 0, "chats": len({m["chat"] for m in msgs}),
            "days": len({m["sent"][:10] for m in msgs}), "by_group": dict(sorted(by.items()))}


def dump(name, msgs):
    doc = {"conventions": CONVENTIONS, "counts": counts(msgs), "messages": msgs, "questions": []}
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
        f.write("\n")


def main():
    messages, dev_chats = build()
    dev = [m for m in messages if m["chat"] in dev_chats]
    test = [m for m in messages if m["chat"] not in dev_chats]
    dump("dev.json", dev)
    dump("test.json", test)
    dump("all.json", messages)
    for name, ms in (("dev", dev), ("test", test), ("all", messages)):
        c = counts(ms)
        print(name, c["messages"], "messages,", c["chats"], "chats,", c["days"], "days,", c["by_group"])


if __name__ == "__main__":
    main()
