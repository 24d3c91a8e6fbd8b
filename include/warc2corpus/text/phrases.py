"""The phrases and patterns the cleaning rules of :mod:`warc2corpus.text.extract` look for: credits, bylines,
interface prompts, disclosures, legal notices, sign-offs, the headings of comment sections and of lists of
other stories, date lines, a lead's class names, sharing buttons, comment signatures. Vocabulary only, in
the languages we meet; what a rule does with a match, and the lengths it applies to (``SHORT``,
``LEGAL_WORDS``, ``END_HEADING_WORDS`` …), is in ``extract``, as trafilatura keeps its XPaths apart from
its logic. Each pattern's comment says what it must leave alone; the tests hold both."""

from __future__ import annotations

import re

from warc2corpus.text.naturalness import DATE, MONTHS

CREDIT = re.compile(
    r"^(foto|photo|photos|bilde|bild|image|images|illustrasjon|illustration|grafikk|graphic|kilde|source|"
    r"video|credit|fotograf|photographer)\s*[:/]|getty ?images|\bvia getty\b|/ ?ntb\b|\bntb scanpix\b|"
    r"(?:^|[/|(:,;–-]\s*|\bby\s+)(afp|reuters|ap|ntb|epa)\s*(photo|foto)?$|^\(?(foto|photo)\b|"
    r"\b(?:image|photo|picture|foto|bilde)s?\s+(?:via|from|courtesy\s+of|fra)\s+(?:shutterstock|getty|istock|flickr|"
    r"unsplash|wikimedia|pixabay|reuters|afp|ntb|scanpix)\b|"
    # an agency or a staff writer alone ("Associated Press", "Staff and agencies", "CanWest News Service",
    # "Washington Post Staff Writer"), over the story's time ("Associated Press - January 11, 2008 4:13 PM ET"),
    # or bringing it ("Brought to you by AAP"); not "(AP)", which some truths keep as the story's dateline
    r"^(?:\(c\)\s*)?(?:from\s+)?(?:the\s+)?(?:aap|ians|nzpa|pti|upi|associated\s+press|canadian\s+press|"
    r"press\s+association|agence\s+france-presse|staff\s+and\s+agencies|(?:[\w.&-]+\s+){1,2}news\s+service|"
    r"(?:[\w.&-]+\s+){0,3}(?:news\s+)?staff(?:\s+writer)?|ap\s+\w+\s+writer)\W*$|"
    r"^(?:the\s+)?(?:associated\s+press|ap|reuters|afp)\s*[-–—]\s*(?:" + MONTHS + r")\b|"
    r"^\W*brought\s+to\s+you\s+by\b", re.IGNORECASE)  # "Brought to you by AAP"

# A byline: "By"/"Av", two names or more (not a weekday's or a month's: "By Monday, …" opens a
# sentence), then at most a separator and a title, an outlet or a date ("By Ben Grossman -- Broadcasting
# & Cable, 1/21/2008", "Av Kari Hansen og Ola Nordmann"); dropped as a credit: the page's metadata gives
# the author. A byline is BYLINE_WORDS long at most (in ``extract``).
_NAME = r"[A-ZÆØÅ][\w.'’-]*"
_NAME_PARTICLES = r"(?:\s+(?:van|von|de|da|del|der|and|og|&))*"
BYLINE = re.compile(
    rf"(?:[Bb][Yy]|[Aa][Vv])\s+(?!(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|"
    rf"March|April|May|June|July|August|September|October|November|December)\b){_NAME}{_NAME_PARTICLES}"
    rf"(?:\s+{_NAME}{_NAME_PARTICLES})+(?:\s*(?:,|--|–|-|\||/)\s*.*)?$")

# Interface prompts: in a short paragraph, wherever they stand.
BOILERPLATE = re.compile(
    r"\b(all rights reserved|click here|read more|see more(?!\s+and\s+more\b)|don'?t miss|share this|follow us|"
    r"newsletters?|thanks?\s+(?:you\s+)?for\s+subscribing|log ?out|sponsored (?:links?|content|posts?|stories)|"
    r"les også|les mer|se også|del artikkelen|del saken|følg oss|tips oss|kort fortalt|nyhetsbrev[a-zæøå]*|logg inn|"
    r"mehr zum thema|czytaj więcej|lire aussi|externer inhalt|privatsphäre|"
    r"printer[- ]friendly|print[- ]friendly|e-?mail (?:this )?(?:story|article)|(?:e-?mail|send) to a friend|"
    r"print (?:this )?(?:story|article|page)|tips en venn)\b|©|"
    r"^(comments?|kommentarer|annonse|advertisement|anzeige|tags?|etiketler)\s*:?$|^sponsored\b|"
    # the page's labels of the story: "Tags: observatory, outreach, science", "Filed Under: Sports",
    # "| Category : India |"
    r"^\W*(?:tags?|topics?|filed\s+under|categor(?:y|ies)|keywords|emneord|stikkord)\s*:\s*\S|"
    # a label alone: over a list of links, or the page's controls
    r"^(related|see also|also|more about|font|font size|text size|breaking news|previous (?:story|article)|"
    r"next (?:story|article)|forrige (?:sak|artikkel)|neste (?:sak|artikkel)|skriftstørrelse)\s*:?$|"
    r"^(?:full|view)\s+profile\W*$|"  # an author box's link: "Full profile →"
    r"^send this (?:article|story) to (?:a )?friends?\b|^send this (?:article|story|page)\s*:?$|"
    # a reading time: "Lesetid: 3 min", "5 min read", "Tempo de leitura: 1 minuto"
    r"^\W*(?:(?:estimated\s+)?(?:reading|read)\s+time|lesetid|lästid|læsetid|tempo\s+de\s+leitura|lesezeit|"
    r"temps\s+de\s+lecture)\s*:?\s*(?:ca\.?\s*|about\s+)?\d+\s*(?:min\w*|minutt\w*|minut\w*)\W*$|"
    r"^\W*\d+\s*(?:min\.?|minutes?|minutter|minutt)\s*(?:read|reading|lesetid|lesing|å\s+lese)\W*$|"
    # a tip line and a prompt to comment: "Got a story? Get in touch with our news team …", "When news happens:
    # send photos, videos & tip-offs to …", "Send comments to …", "Would you like to comment on this article?"
    r"^\W*got\s+a\s+(?:story|news\s+tip|tip)\b|"
    r"^\W*when\s+(?:news\s+happens|you\s+see\s+news\s+happening)\b|\bsend\s+photos,\s+videos\s+(?:&|and)\s+tip-?offs\b|"
    r"^\W*(?:e-?mail|send)\s+(?:us\s+)?(?:your\s+)?(?:technical\s+|investigative\s+)?(?:comments|questions|feedback|"
    r"(?:news\s+)?tips)\b|\bnow\s+have\s+your\s+say\b|^\W*have\s+a\s+view\s+on\s+this\s+story\b|"
    r"\bget\s+in\s+touch\s+with\s+(?:our|the)\s+(?:news\s+)?(?:team|newsroom|desk)\b|"
    r"^\W*would\s+you\s+like\s+to\s+comment\b|\bbefore\s+commenting\b|\bkommentar\s+abgeben\b|"
    # the page's controls of its type: "Increase font size", "Larger text Smaller text"
    r"^(?:(?:increase|decrease|larger|smaller|bigger|reset)\s+(?:font|text)(?:\s+size)?\W*){1,3}$|"
    # "(Story continues below)", "Saken fortsetter under annonsen": the text going on past an advertisement
    r"^\W*(?:story|article) continues (?:below|after)\b|^\W*(?:saken|artikkelen) fortsetter (?:under|etter)\b|"
    # the site's notes on browsers, feeds and advertising: "This site is best viewed with Internet Explorer 6.0
    # or higher", "This content requires the latest Adobe Flash Player", "RSS allows you to subscribe …", "Add
    # news headlines and more to your Google or Yahoo! homepages", "Contact our advertising team …"
    r"\b(?:site|page|website)\s+is\s+best\s+viewed\b|^\W*best\s+viewed\s+(?:with|in|using|at)\b|"
    r"\b(?:siden|nettstedet|nettsiden)\s+vises\s+best\b|\bthis\s+(?:content|video|site|page|feature)\s+requires\b"
    r"[^.]{0,40}\bflash\b|\bbrowser\s+with\s+javascript\s+enabled\b|"
    r"^\W*RSS\s+(?:feeds?\s+)?(?:allows?|lets?)\b|\badd\s+(?:news\s+)?headlines\s+(?:and\s+more\s+)?to\s+your\b|"
    r"\b(?:contact|call|e-?mail)\s+our\s+advertising\b|\badvertise\s+with\s+us\b|\bannonser\s+hos\s+oss\b|"
    r"^\W*advertise\s+(?:on|in)\b|\bcomments?,\s+write\s+to\b|"
    r"\byou\s+are\s+using\s+an?\s+(?:browser\s+version|outdated\s+browser)\b|\bup\s+to\s+date\s+browser\b|"
    r"\bturn\s+off\s+compatibility\s+mode\b|\bthe\s+site\s+without\s+styles\b|\b(?:upgrade|update)\s+your\s+browser\b|"
    # the site's app and newsletter, and prompts to pass the story on or to write in: "Download the CBS Sports App
    # today …", "Keep an eye on your inbox …", "Like this story? Share it with a friend!", "Tell us what YOU think"
    r"^\W*(?:download|get)\s+(?:the|our)\s+(?:[\w-]+\s+){0,3}app\b|^\W*last\s+ned\s+(?:appen|[\w-]+-appen)\b|"
    r"\bkeep\s+an\s+eye\s+on\s+your\s+inbox\b|\berror\s+processing\s+your\s+subscription\b|"
    r"\bshare\s+it\s+with\s+a\s+friend\b|^\W*tell\s+us\s+what\s+you\s+think\b|"
    r"\bplease\s+share\s+your\s+(?:comments|thoughts|views)\b|^\W*to\s+have\s+your\s+say\b|"
    r"^\W*(?:want\s+to\s+)?submit\s+a\s+story\b|\byour\s+(?:favou?rite\s+)?RSS\s+reader\b|\bklicken\s+sie\s+hier\b|"
    r"\bklikk\s+her\b|^\W*test\s+your\s+(?:\w+\s+){0,2}knowledge\b|"
    # a teaser's blurb with its gallery's link: "The new Porsche Panamera is the best-handling big sedan in the world.
    # Photos"; the site's pointers and prompts: "For more stories like this, check our news page.", "Our Standards:
    # The Thomson Reuters Trust Principles.", "Tell us your favourite …", "CLICK FOR PRIZE DRAW"
    r"[.!?\"”]\s+(?:\w+\s+)?(?:photos|video|gallery)\s*$|\bfor\s+more\s+stories\s+like\s+this\b|"
    r"^\W*our\s+standards\s*:|"
    r"^\W*tell\s+us\s+your\s+(?:favou?rite|views?|thoughts|opinions?)\b|^\W*click\s+for\b|"
    # a template's variable the page never filled ("We'll begin emailing you updates about %gameName%."), a video's
    # title with its length run on ("Fears for sugarcane crop after Cyclone Debbie1:21"), "Get the latest … here.",
    # "Last 5 posts by …", "*Stock Advisor returns as of …", "you need to have JavaScript enabled"
    r"%[a-z][A-Za-z]{2,}%|\{\{\s*[\w.]+\s*\}\}|[^\W\d_]\d{1,2}:\d\d\s*$|^\W*get\s+the\s+latest\b[^.!?]{0,60}\bhere\W*$|"
    r"^\W*(?:last|latest|recent)\s+\d+\s+(?:posts|articles|stories)\s+by\b|^\W*\*?\s*stock\s+advisor\s+returns\b|"
    r"\byou\s+need\s+to\s+(?:have\s+)?(?:enable\s+)?javascript\b|\bjavascript\s+enabled\s+in\s+your\s+browser\b|"
    # a modern site's asks: how the reader liked the article, an error to report, support for its journalism, a
    # trial, push notices ("Wie hat Ihnen dieser Artikel gefallen?", "Fehler gefunden? Jetzt melden.", "Unabhängiger
    # Journalismus braucht deine Unterstützung.", "2 Wochen kostenlos testen"; and as Norwegian sites put them)
    r"\bwie\s+hat\s+ihnen\s+dieser\s+artikel\s+gefallen\b|"
    r"^\s*hva\s+(?:synes|syntes)\s+du\s+om\s+(?:denne\s+)?(?:saken|artikkelen)\s*\?\s*$|"
    r"\bdid\s+you\s+(?:like|enjoy)\s+this\s+(?:article|story)\b|\bdurchschnittliche\s+bewertung\b|"
    r"^\W*enjoying\s+our\s+(?:latest\s+)?content\b|"
    r"^\W*(?:fehler\s+gefunden|found\s+an?\s+(?:error|mistake|typo)\s+in\s+(?:this|the)\s+(?:article|story)|"
    r"(?:fant\s+du|har\s+du\s+funnet)\s+en\s+feil\s+i\s+(?:saken|artikkelen))\b|"
    r"\b(?:unabhängiger|independent|uavhengig)\s+(?:journalismus|journalism|journalistikk)\s+"
    r"(?:braucht|needs|trenger)\s+(?:deine|ihre|your|din)\b|"
    r"\bstøtt\s+(?:uavhengig\s+)?journalistikk\b|"
    r"^\W*\d+\s+(?:wochen|tage|weeks|days|dager|uker)\s+(?:kostenlos|free|gratis)\b|"
    r"^\W*push-?(?:nachrichten|varsler|notifications?)\b|\beinloggen\b[^.!?]{0,40}\bkommentar|"
    r"\badd\s+us\s+as\s+a\s+preferred\s+source\b|"
    r"^\W*popular\s+on\s+\w+\W*$|^\W*listen\s*:\s*https?://|"
    r"^\W*talkbacks?\b|^\W*place\s+an?\s+(?:classified|ad)\b|\bjoin\s+today\s*[.!]?\s*$|"
    r"^\W*please\s+support\s+(?:local\s+business(?:es)?|our\s+(?:advertisers|sponsors))\b|"
    r"^\W*(?:view|see)\s+(?:the\s+)?(?:featured\s+)?(?:photo\s+)?gallery\b|^\W*se\s+(?:alle\s+)?bildene\b|"
    # a weather box: "Tuesday, January 15, 2008 Weather: Hi: 7°C / Lw: 4°C", "/ Wind: 13 Km/h / Humidity: 68 %"
    r"\b(?:humidity|wind)\s*:\s*\d|\bweather\s*:\s*(?:hi|high)\b|"
    # a rating widget: "Avg Rating Not yet rated", "DID YOU ENJOY THIS ARTICLE", "Print 0 Ratings | Rate It:"
    r"\bavg\.?\s+rating\b|\bnot\s+yet\s+rated\b|\bdid\s+you\s+enjoy\s+this\s+(?:article|story)\b|"
    r"\brate\s+(?:it|this\s+(?:article|story))\s*:|"
    # the story before or after this one: "Previous story: Sports Sunflashes", "Previous: Out on a High Note |"
    r"^\W*(?:previous|next)\s+(?:story|article|post)\s*:\s*\S|^\W*previous\s*:\s*\S|"
    r"^\W*next\s+in\s+\w+(?:\s+\w+)?\s*:\s*$|^\W*(?:forrige|neste)\s+(?:sak|artikkel)\s*:\s*\S|"
    # a notice that the page may not be copied: "Reproduction or reuse prohibited without written consent from
    # PittsburghLIVE.", "No part of this site should be used in any other media without prior permission."
    r"^\W*(?:reproduction|republication|redistribution|reuse)\b[^.]{0,60}?\bprohibited\b|\bredissemination\b|"
    r"\bexpressly\s+prohibited\s+without\s+the\s+(?:prior\s+)?written\s+consent\b|"
    r"\bno\s+part\s+of\s+this\s+(?:site|website|publication|screen)\b|"
    r"\bthis\s+(?:material|content|article|story)\s+may\s+not\s+be\s+"
    r"(?:published|reproduced|rewritten|redistributed)\b|"
    r"\b\d+\s+votes?\s+recommend\b|"
    # a comment form's fields and its empty thread, as WordPress writes them ("Name (required)", "Mail (will not
    # be published) (required)", "No comments yet."; "Navn (obligatorisk)", "E-post (publiseres ikke)")
    r"^\W*(?:name|navn|namn|e-?mail|mail|e-?post)\s*\*?\s*\((?:required|obligatorisk|påkrevd|påkravd|"
    r"will\s+not\s+be\s+published|publiseres\s+ikke|vil\s+ikke\s+bli\s+publisert)\)|"
    r"^\W*(?:no\s+comments\s+yet|ingen\s+kommentarer\s+(?:enda|ennå)|ingen\s+kommentarar\s+(?:enno|ennå))\W*$|"
    # "Read the original article here": a pointer elsewhere, in any of the languages we meet
    r"^(read|lest|lies|lesen sie|les|läs|læs)\b[^.!?]{0,80}\b(here|hier|her|här)\W*$",
    re.IGNORECASE)

# A site's disclosure, in a paragraph of LEGAL_WORDS words at most wherever it stands: that it earns from the
# links it gives ("If you click on one and buy the product we may receive a small commission", "Buying through
# us may earn us a commission", "Artikkelen inneholder annonselenker"), or what its writers hold ("Disclosure:
# CoinDesk is a subsidiary of …", "Rich Smith has no position in any stocks mentioned. The Motley Fool has a
# disclosure policy."), or what the copy may be used for (a reprint notice).
DISCLOSURE = re.compile(
    r"\b(?:we|us)\b[^.!?]{0,60}\b(?:may|might|could|can)\s+(?:earn|receive|get|make)\s+(?:us\s+)?(?:a\s+|an\s+)?"
    r"(?:small\s+)?(?:affiliate\s+)?commission\b|\bmay\s+earn\s+an?\s+affiliate\s+commission\b|"
    r"\b(?:contains?|includes?|uses?)\s+affiliate\s+links?\b|"
    r"\b(?:annonselenker|reklamelenker|affiliatelenker|affiliate-lenker)\b|"
    r"^\W*disclosure\s*:|\bhas\s+no\s+position\s+in\s+any\s+(?:of\s+the\s+)?stocks?\s+mentioned\b|"
    r"\bhas\s+a\s+disclosure\s+policy\b|"
    # a reprint notice ("Dow Jones Reprints: This copy is for your personal, non-commercial use only. …")
    r"\bthis\s+copy\s+is\s+for\s+your\s+personal,?\s+non-?commercial\s+use\b", re.IGNORECASE)

# What prompts are about (subscriptions, cookies, advertising, copyright, signing up, logging in) is also
# what news is written about ("the service raises the price of its subscription", "an admission of copyright
# infringement"): such a word marks a prompt only among the first four words of a sentence ("Abonner på …",
# "Vi bruker informasjonskapsler …", "Bli abonnent i dag: …", "Copyright 2019 …").
# "Sponsored" is a label only where it opens the paragraph or names the links or content it labels
# (BOILERPLATE): "a measure sponsored by Sen. Cruz" is news.
BOILERPLATE_TOPIC = re.compile(
    r"\b(subscribe|subscriptions?|cookies?|advertisement|copyright|sign(?:ing)? up|log ?in|abonn[a-zæøå]*|annonse|"
    r"informasjonskapsl[a-zæøå]*|anzeige)\b", re.IGNORECASE)

# Signing up, logging in and subscribing: a prompt where it opens a sentence (BOILERPLATE_TOPIC; not
# "subscribing") or speaks to the reader ("… you can log in for immediate access", "By subscribing, you agree
# to …"); news otherwise ("the company continued to sign up subscribers", "But subscribing to a nuclear fuel
# bank has so far not been on the negotiating table", BBC News). "Thanks for subscribing" is a prompt anywhere
# (BOILERPLATE); so is "see more", but in "you will see more and more games …".
ACCOUNT = re.compile(r"\b(?:sign(?:ing)? up|log ?in|subscribing)\b", re.IGNORECASE)
TO_THE_READER = re.compile(r"\b(?:you|your)\b", re.IGNORECASE)

# A site's legal notice: two kinds of terms, privacy (cookies), copyright, rights reserved or a
# disclaimer, in the site's own voice ("our", "this site", "©", a line of links "|"), in a paragraph of
# LEGAL_WORDS words at most with nothing after it but such paragraphs and lines of END_HEADING_WORDS
# words at most (links, a contact line). A story about a service's terms names them too, but in no
# site's voice, and a wire story's last paragraph may end "Copyright (c) Press Association Ltd. 2008, All
# Rights Reserved.": it is longer.
LEGAL_KINDS = {
    "terms": r"terms\s+(?:of\s+(?:service|use)|and\s+conditions|under\s+which)|user\s+agreement|vilkår\w*",
    "privacy": r"privacy\s+(?:policy|statement|notice|guidelines)|cookie\s+policy|personvern\w*|informasjonskapsler",
    "copyright": r"copyright|opphavsrett\w*",
    "reserved": r"all\s+rights\s+reserved|alle\s+rettigheter\s+reservert",
    "disclaimer": r"views\s+expressed",
}
LEGAL = re.compile("|".join(rf"\b(?P<{kind}>{pattern})\b" for kind, pattern in LEGAL_KINDS.items()), re.IGNORECASE)
SITE_VOICE = re.compile(r"\b(?:our|this\s+(?:site|website|web\s+site|service)|vår|våre|vårt|"
                         r"denne\s+(?:siden|tjenesten|nettsiden))\b|©|\|", re.IGNORECASE)

# A disclaimer above the story: views expressed and whose they are, or are not, or no responsibility for them;
# or "Disclaimer" first ("The views expressed in the articles are not necessarily those of earthtimes.org …",
# "The author is a Forbes contributor. The opinions expressed are those of the writer.", "Disclaimer: Letters,
# articles, and cartoons from contributors do not necessarily reflect …"). It is a site's legal notice too,
# before the text's first sentence of HEAD_SENTENCE_WORDS words or more (:func:`extract._head_notices`). Below the
# story an opinion piece may end "The views expressed … do not necessarily reflect those of …", which some
# truths keep: there only the notices of two kinds go (:func:`extract._tail_notices`).
DISCLAIMER = re.compile(r"^\W*disclaimer\b|\b(?:views?|opinions?|statements?)(?:\s+and\s+\w+)?\s+expressed\b.*"
                         r"\b(?:not\s+necessarily|are\s+(?:solely\s+)?those\s+of|no\s+responsibility)\b", re.IGNORECASE)

# A story's sign-off, among the text's last paragraphs as a legal notice is (:func:`extract._tail_notices`), in a
# paragraph of LEGAL_WORDS words at most (the agency that brought it is a ``credit`` wherever it stands: "Brought to
# you by AAP", "Associated Press" alone): where in print it first appeared or how long it is there ("This article was
# originally published on page 28 of The Sunday Tribune …", "The article originally appeared in the February
# issue of Seattle Magazine.", "The full article contains 283 words and appears in …"), where its information
# came from, a trademark line ("icScotland™ is a trade mark of …"), that it came from the wire unedited. Not a
# note that another site published it first ("This article was originally published by Futurism.") or that it
# was updated, which the benchmark's truths keep, nor the writer's address, "… can be reached at …" or "…
# contributed to this report", which some sites' truths keep and others' not.
SIGN_OFF = re.compile(r"""^\W*(?:
      (?:this|the)\s+(?:article|story|column|piece)\s+(?:was\s+)?(?:originally\s+|first\s+|also\s+)?
      (?:published|appeared|ran)\s+(?:on\s+page\s+\w+|in\s+(?:the\s+)?(?:\w+\s+){0,3}(?:issue|edition)\s+of)\b
    | the\s+full\s+(?:article|story|text)\s+(?:contains|has)\s+\d
    | (?:some\s+)?information\s+(?:for|in)\s+this\s+(?:report|story|article)\s+(?:was\s+)?(?:provided|came)\b
) | \bis\s+a\s+(?:registered\s+)?trade\s?mark\s+of\b
  # a wire story's provenance: "In the interest of timeliness, this story is fed directly from the Associated Press
  # newswire and may not have been edited by …", "This story is sourced direct from an overseas news agency …"
  | \bfed\s+directly\s+from\s+the\s+(?:[\w-]+\s+){0,4}?newswire\b
  | \bsourced\s+direct(?:ly)?\s+from\s+an?\s+(?:[\w-]+\s+){0,3}?news\s+agency\b""", re.IGNORECASE | re.VERBOSE)

# The heading of a comment section ("2 comments", "Comments are now closed for this story", "Reader views
# (5)", "Comments (No comments posted.)", "Most Recent Reader Comments:", "Post a comment", "Skriv en
# kommentar", "Kommentarer (3)"): readers' comments follow it, not the
# article. Pages of the 2000s set them below the story with no mark trafilatura knows. A bare singular "Comment" or
# "Kommentar" is not one (a kicker over an opinion piece), nor a bare "Have your say" (a box beside the
# story that invites comments elsewhere).
COMMENTS_HEADING = re.compile(r"""^\W*(?:
      \d+\s+(?:comments?|responses?|replies|kommentarer|kommentarar|kommentar)\b
    | comments\s*:?\W*$|comments?\s*\((?:\d+|no\s+comments?(?:\s+(?:posted|yet))?\W*)\)\W*$
    | (?:most\s+)?(?:readers?'?|user|your|latest|recent)\s+(?:readers?'?\s+)?(?:comments|views|reactions)\b
    | comments\s+on\s+this\s+(?:article|story|post)\W*$
    | have\s+your\s+say\s+(?:on|about)\b
    | comments?\s+(?:are\s+)?(?:now\s+)?closed
    | (?:leave|post|add|write|submit)\s+(?:a|your)\s+(?:new\s+)?(?:comment|reply|response)s?\b
    | (?:skriv|legg\s+(?:igjen|inn)|lämna|efterlad)\s+(?:en\s+|ein\s+)?kommentar\b
    | kommentar(?:er|ar|ene|ane)\s*:?\W*$|kommentar(?:er|ar|ene|ane)?\s*\(\d+\)\W*$
    | kommentar(?:feltet|ane|ene)?\s+er\s+(?:stengt|stengd|lukket|lukka)
    | discuss\s+this\s+(?:story|article)
)""", re.IGNORECASE | re.VERBOSE)

# The rules over a comment section, which open it as its heading does ("The following are comments from
# the readers.", "Comments are limited to 200 words or less.", "Note: All Comments Subject To Approval").
COMMENT_POLICY = re.compile(r"""(?:
      \bcomments?\s+(?:are|is|will\s+be)\s+(?:\w+\s+)?(?:limited|subject\s+to|moderated|reviewed|screened|monitored)
    | \bcomments?\s+subject\s+to\s+approval
    | \bcomment\s+(?:posters|writers|entries|rules|guidelines|policy)\b
    | \bthe\s+following\s+are\s+(?:readers'?\s+)?comments\b
    | \bplease\s+post\s+your\s+comments\b
)""", re.IGNORECASE | re.VERBOSE)

# The heading of a list of other stories ("Top stories", "Related Posts:", "You may also like", "Mest
# lest"): teasers follow it.
RELATED_HEADING = re.compile(r"""^\W*(?:
      top\s+(?:\S+\s+){0,2}stories(?:\s+(?:for|of)\s+\S+)?|more\s+(?:stories|news)|partner\s+news
    | editor'?s\s+picks|trending(?:\s+now)?
    | related(?:\s+(?:stories|articles|news|content|coverage|links|posts|videos?|(?:bbc|internet)\s+links))?
    | also\s+in\s+the\s+news|on\s+this\s+topic
    | (?:these|other)\s+(?:articles|stories)\s+(?:could|may|might)\s+(?:also\s+)?interest\s+you
    | most\s+(?:read|popular|viewed|shared|emailed)(?:\s+(?:stories|articles|news))?|popular\s+(?:stories|articles|now)
    | (?:\S+\s+){0,2}headlines|in\s+this\s+section
    | (?:our\s+)?latest\s+(?:news|stories)|recommended(?:\s+(?:for\s+you|stories|articles))?
    | you\s+(?:may|might)\s+also\s+like|(?:what\s+to\s+)?read\s+next
    | mest\s+(?:lest|lese|läst|læste|delt)|siste\s+nytt|flere\s+saker|andre\s+saker|relaterte\s+saker
    | senaste\s+nytt|seneste\s+nyt|weitere\s+artikel\w*|meistgelesen
)\W*$""", re.IGNORECASE | re.VERBOSE)

# The classes and ids publishers give an article's lead (ingress, standfirst, dek, summary, intro).
LEAD_CLASS = re.compile(r"lead|ingress|intro|stand-?first|\bdek\b|summary|excerpt|sub-?title|sub-?headline"
                         r"|sub-?heading|preamble|sapo|chapo", re.IGNORECASE)

# What a line that dates the page holds besides its date: labels, weekdays, months, times and zones.
# (German "Stand" labels a date only beside one: alone it is a word like any other)
_LABELS_ALONE = r"publisert|oppdatert|endret|published|updated|modified|posted|transmitted"
DATE_LABELS = _LABELS_ALONE + r"|stand"
DATE_LABEL = re.compile(r"\b(" + DATE_LABELS + r")\b", re.IGNORECASE)
DATE_LINE_WORDS = re.compile(
    r"\b(?:" + DATE_LABELS + "|" + MONTHS + r"|mandag|tirsdag|onsdag|torsdag|fredag|lørdag|søndag|laurdag|"
    r"sundag|monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|wed|thu|fri|sat|sun|"
    r"sist|last|kl|klokka|uhr|am|pm|on|at|gmt|utc|cet|cest|bst|et|est|edt|ct|cst|cdt|mst|mdt|pst|pdt|ist|jst)\b"
    r"|\b\d{1,2}[:.]\d\d(?::\d\d)?\s*[ap]\.?m\b\.?|\b\d{1,2}(?:st|nd|rd|th)\b"  # "7:51pm", "1st"
    r"|\bpage\s+[a-z]?\d+\b", re.IGNORECASE)  # the print edition's: "Sunday, January 6, 2008; Page A04"

# The dates of such a line: naturalness's, and those English and older pages write otherwise:
# "1st January 2008", "29 December, 2007", "January 6th, 2008", "14/01/2008".
LINE_DATE = re.compile(DATE.pattern + r"|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:" + MONTHS + r")\.?,?\s+\d{4}\b"
                        r"|\b(?:" + MONTHS + r")\.?\s+\d{1,2}(?:st|nd|rd|th),?\s+\d{4}\b"
                        r"|\b\d{1,2}/\d{1,2}/(?:19|20)?\d\d\b", re.IGNORECASE)

# A time alone dates a line too, when it is plainly a clock's: "3:47 PM", "01/09 18:48:47 ET".
CLOCK = re.compile(r"\b\d{1,2}:\d\d(?::\d\d)?\s*[ap]\.?m\b|\b\d{1,2}:\d\d:\d\d\b", re.IGNORECASE)

# A date label with the time since ("Published 11 Hours Ago", "Oppdatert for 3 timer siden") or alone ("Updated",
# "First posted"): the page's clock, whose date a script fills in or a widget shows.
DATE_AGO = re.compile(r"^\W*(?:first\s+|last\s+|sist\s+)?(?:" + _LABELS_ALONE + r")\s*:?\s*(?:"
                       r"(?:for\s+)?\d+\s+(?:seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|sekunder|minutter|"
                       r"timer?|dager?|dagar|uker?|veker?)\s+(?:ago|siden)\W*)?$", re.IGNORECASE)

# A row of sharing buttons' names: "Submit to: Digg Slashdot Del.icio.us Reddit", "| Email del.icio.us Google
# Yahoo digg |": SHARING_NAMES_MIN names or more, and they SHARING_SHARE of its words at least ("Facebook,
# Twitter and Google face new rules" is news).
SHARING_NAMES = re.compile(r"(?<![\w.])(?:digg|del\.icio\.us|delicious|reddit|slashdot|stumbleupon|facebook|twitter|"
                            r"google\+?|yahoo!?|myspace|newsvine|technorati|furl|linkedin|whatsapp|pinterest|tumblr|"
                            r"e-?mail|print)(?![\w.])", re.IGNORECASE)

# A comment's signature: "Posted by: tom3465, farnworth on 8:21pm Tue 1 Jan 08", "King Eric wrote:", or a
# short line that is no sentence: "Louise, Lancaster, UK", "Frank @ Toronto", "J-F (Ottawa)".
SIGNED = re.compile(r"^\W*(?:(?:posted|written|submitted|sent)\s+by\b|skrevet\s+av\b)|\b(?:wrote|skreiv|skrev):\s*$",
                     re.IGNORECASE)
