"""Words every reader of text shares: stop words, and capitalised words that are no one's name."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TextWords:
    """The words the tokenizer drops and the capitalised words no reader takes for a name."""

    #: Words too common to search by: the tokenizer, names and topics leave them out.
    stop_words: tuple[str, ...] = (
        "a", "an", "the", "and", "or", "but", "if", "of", "at", "by", "for", "with", "about",
        "against", "between", "into", "through", "during", "before", "after", "above", "below",
        "to", "from", "up", "down", "in", "out", "on", "off", "over", "under", "again", "further",
        "then", "once", "here", "there", "when", "where", "why", "how", "all", "any", "both",
        "each", "few", "more", "most", "other", "some", "such", "no", "nor", "not", "only", "own",
        "same", "so", "than", "too", "very", "s", "t", "can", "will", "just", "don", "should",
        "now", "i", "me", "my", "myself", "we", "our", "ours", "ourselves", "you", "your", "yours",
        "yourself", "yourselves", "he", "him", "his", "himself", "she", "her", "hers", "herself",
        "it", "its", "itself", "they", "them", "their", "theirs", "themselves", "what", "which",
        "who", "whom", "this", "that", "these", "those", "am", "is", "are", "was", "were", "be",
        "been", "being", "have", "has", "had", "having", "do", "does", "did", "doing", "would",
        "could", "ought", "i'm", "you're", "he's", "she's", "it's", "we're", "they're", "i've",
        "you've", "we've", "they've", "i'd", "you'd", "he'd", "she'd", "we'd", "they'd", "i'll",
        "you'll", "he'll", "she'll", "we'll", "they'll", "isn't", "aren't", "wasn't", "weren't",
        "hasn't", "haven't", "hadn't", "doesn't", "don't", "didn't", "won't", "wouldn't", "shan't",
        "shouldn't", "can't", "cannot", "couldn't", "mustn't", "let's", "that's", "who's",
        "what's", "here's", "there's", "when's", "where's", "why's", "how's", "yeah", "oh", "hey",
        "hi", "wow", "really", "also",
    )  # fmt: skip

    #: Capitalised words that are no one's name: greetings, question and function words, months,
    #: days, titles. The anchorer (names in turns) and the frame inducer (names in questions)
    #: read a capitalised word the same way.
    not_names: tuple[str, ...] = (
        "I", "Hey", "Hi", "Hello", "Oh", "Wow", "Yeah", "Yes", "No", "Thanks", "Thank", "Sure",
        "Okay", "Ok", "Great", "Good", "Nice", "Awesome", "Cool", "Congrats", "Congratulations",
        "Sorry", "Well", "So", "And", "But", "Or", "The", "A", "An", "It", "That", "This", "What",
        "How", "Why", "When", "Where", "Who", "Whom", "Whose", "Which", "My", "Your", "Our",
        "Their", "We", "You", "He", "She", "They", "Me", "Let", "Lol", "Haha", "Aw", "Aww",
        "Absolutely", "Totally", "Definitely", "Monday", "Tuesday", "Wednesday", "Thursday",
        "Friday", "Saturday", "Sunday", "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December", "Mom", "Dad",
        "Christmas", "Easter", "Happy", "Welcome", "Lovely", "Sounds", "Ouch", "Also", "Please",
        "Maybe", "Just", "Same", "Nope", "Yep", "Hmm", "Dr", "Mr", "Mrs", "Ms", "Anyway",
        "Honestly", "Amazing", "Glad", "Love", "Hope", "Keep", "Take", "Have", "Be", "Enjoy",
        "Yay", "Omg", "Would", "Could", "Should", "Did", "Does", "Do", "Is", "Are", "Was", "Were",
        "Has", "Had", "Can", "Will", "In", "On", "At", "After", "Before", "Since", "Until",
        "During",
    )  # fmt: skip
