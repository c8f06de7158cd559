"""The retail product catalog: product types and their option dimensions (invented for aceforge).

Each entry: product name -> (price range in dollars, {option: values}). The
generator draws a subset of option combinations as variant items.
"""

PRODUCT_TYPES: dict[str, tuple[tuple[int, int], dict[str, tuple[str, ...]]]] = {
    "Desk Lamp": ((25, 120), {"color": ("black", "white", "brass"), "bulb": ("LED", "halogen")}),
    "Mechanical Keyboard": (
        (60, 220),
        {
            "switch": ("linear", "tactile", "clicky"),
            "layout": ("full", "tenkeyless"),
            "backlight": ("none", "white", "RGB"),
        },
    ),
    "Wireless Mouse": ((15, 90), {"color": ("black", "gray", "blue"), "sensor": ("optical", "laser")}),
    "Running Shoes": ((70, 180), {"size": ("7", "8", "9", "10", "11", "12"), "color": ("red", "black", "white")}),
    "Rain Jacket": ((50, 200), {"size": ("S", "M", "L", "XL"), "color": ("navy", "olive", "yellow")}),
    "Water Bottle": ((10, 45), {"capacity": ("500ml", "750ml", "1l"), "material": ("steel", "glass", "plastic")}),
    "Backpack": ((40, 160), {"capacity": ("18l", "25l", "32l"), "color": ("black", "green", "grey")}),
    "Coffee Grinder": ((30, 250), {"type": ("blade", "burr"), "capacity": ("small", "large")}),
    "Electric Kettle": ((20, 110), {"capacity": ("1l", "1.7l"), "material": ("steel", "glass")}),
    "Yoga Mat": ((15, 90), {"thickness": ("4mm", "6mm", "8mm"), "color": ("purple", "teal", "black")}),
    "Headphones": (
        (40, 350),
        {"type": ("over-ear", "on-ear", "in-ear"), "connectivity": ("wired", "wireless"), "color": ("black", "white")},
    ),
    "Smart Watch": (
        (120, 450),
        {"case": ("40mm", "44mm"), "band": ("silicone", "leather", "metal"), "gps": ("yes", "no")},
    ),
    "Tent": ((90, 480), {"capacity": ("2-person", "4-person", "6-person"), "season": ("3-season", "4-season")}),
    "Sleeping Bag": ((45, 260), {"rating": ("0C", "-7C", "-15C"), "fill": ("synthetic", "down")}),
    "Office Chair": ((110, 520), {"material": ("mesh", "fabric", "leather"), "armrest": ("fixed", "adjustable")}),
    "Bookshelf": ((60, 300), {"material": ("oak", "pine", "metal"), "height": ("3 shelves", "5 shelves")}),
    "Bicycle Helmet": ((35, 160), {"size": ("S", "M", "L"), "color": ("white", "black", "orange")}),
    "Blender": ((40, 280), {"power": ("600W", "1000W", "1500W"), "jar": ("plastic", "glass")}),
    "Tablet Stand": ((12, 60), {"material": ("aluminium", "wood"), "color": ("silver", "black", "natural")}),
    "Portable Speaker": ((30, 230), {"color": ("black", "red", "blue"), "waterproof": ("yes", "no")}),
    "Wall Clock": ((18, 95), {"style": ("modern", "classic"), "diameter": ("25cm", "35cm")}),
    "Garden Hose": ((20, 85), {"length": ("15m", "25m", "40m"), "material": ("rubber", "vinyl")}),
    "Cookware Set": ((80, 420), {"pieces": ("5", "8", "12"), "coating": ("stainless", "non-stick", "cast iron")}),
    "Air Purifier": ((90, 500), {"room size": ("small", "medium", "large"), "filter": ("HEPA", "carbon")}),
    "Jigsaw Puzzle": ((10, 45), {"pieces": ("500", "1000", "2000"), "theme": ("landscape", "animals", "art")}),
    "Camera Tripod": ((25, 190), {"material": ("aluminium", "carbon fiber"), "max height": ("120cm", "160cm")}),
    "Desk Organizer": ((12, 55), {"material": ("bamboo", "metal", "plastic"), "color": ("natural", "black", "white")}),
    "Hiking Boots": (
        (90, 260),
        {"size": ("7", "8", "9", "10", "11", "12"), "waterproof": ("yes", "no"), "material": ("leather", "synthetic")},
    ),
    "Thermostat": ((60, 240), {"color": ("white", "black"), "compatibility": ("standard", "smart home")}),
    "E-Reader": ((80, 280), {"screen": ("6in", "7in"), "storage": ("8GB", "32GB"), "color": ("black", "white")}),
}
