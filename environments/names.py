"""Name, street and city pools shared by the domain generators (invented for aceforge)."""

FIRST_NAMES = (
    "Ada", "Bruno", "Chiara", "Dmitri", "Elena", "Farid", "Greta", "Hiro", "Ines", "Jonas", "Kalani",
    "Lena", "Mateo", "Nadia", "Oskar", "Priya", "Quentin", "Rosa", "Samir", "Tove", "Umar", "Vera",
    "Wen", "Ximena", "Yusuf", "Zora", "Amara", "Bjorn", "Caleb", "Delia", "Emeka", "Freya", "Gideon",
    "Hana", "Ivo", "Jana", "Kofi", "Lior", "Mira", "Nils", "Olga", "Pavel", "Rhea", "Soren", "Talia",
)
LAST_NAMES = (
    "Abara", "Berg", "Castillo", "Dvorak", "Eklund", "Fontaine", "Gallo", "Haddad", "Iwata", "Jensen",
    "Kowalski", "Lindqvist", "Moreau", "Nakamura", "Okafor", "Petrov", "Quiroga", "Rossi", "Sato",
    "Tanaka", "Ueda", "Varga", "Weiss", "Xu", "Yilmaz", "Zeller", "Achebe", "Brandt", "Costa", "Duarte",
    "Esposito", "Fischer", "Garcia", "Horvat", "Ivanova", "Jovanovic", "Kim", "Larsen", "Mendes",
)
STREETS = (
    "Alder Lane", "Birch Road", "Cedar Court", "Dune Street", "Elm Avenue", "Fern Way", "Granite Drive",
    "Harbor Street", "Iris Place", "Juniper Road", "Kestrel Lane", "Linden Avenue", "Maple Row",
    "Northgate Road", "Orchard Street", "Pine Hollow", "Quarry Lane", "River Walk", "Spruce Street",
)
# (city, state, zip prefix): zips are prefix + two random digits.
CITIES = (
    ("Portland", "OR", "972"), ("Austin", "TX", "787"), ("Denver", "CO", "802"), ("Columbus", "OH", "432"),
    ("Raleigh", "NC", "276"), ("Madison", "WI", "537"), ("Tucson", "AZ", "857"), ("Boise", "ID", "837"),
    ("Albany", "NY", "122"), ("Richmond", "VA", "232"), ("Omaha", "NE", "681"), ("Savannah", "GA", "314"),
)
EMAIL_DOMAINS = ("example.com", "mail.test", "inbox.test", "post.example")
