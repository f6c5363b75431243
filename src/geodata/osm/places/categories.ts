import type { OsmTags } from '../osm-file.js';

/**
 * The category tree, one slug per line, children indented under their parent (two spaces a level).
 * Radar's own taxonomy is not open (data-sources.md, gap 5), so these are our slugs in its style. A place
 * carries its category and every ancestor: a coffee shop is also `food-beverage`.
 */
const TREE = `
food-beverage
  restaurant
    fast-food-restaurant
    american-restaurant
    asian-restaurant
      chinese-restaurant
      japanese-restaurant
        sushi-restaurant
      korean-restaurant
      thai-restaurant
      vietnamese-restaurant
      indian-restaurant
      filipino-restaurant
    mexican-restaurant
    italian-restaurant
    french-restaurant
    mediterranean-restaurant
      greek-restaurant
    middle-eastern-restaurant
    latin-american-restaurant
    hawaiian-restaurant
    seafood-restaurant
    steakhouse
    barbecue-restaurant
    breakfast-brunch
    burger-joint
    pizza-place
    sandwich-shop
    chicken-restaurant
    vegetarian-restaurant
    food-court
  coffee-shop
  tea-house
  bakery
  dessert-shop
    ice-cream-shop
    donut-shop
    candy-store
  juice-bar
  bar
    pub
    wine-bar
    brewery
  nightlife
    night-club
shopping-retail
  grocery-store
    supermarket
    butcher
    seafood-market
    deli
    farmers-market
  convenience-store
  liquor-store
  department-store
  warehouse-club
  variety-store
  shopping-mall
  clothing-store
  shoe-store
  jewelry-store
  cosmetics-store
  electronics-store
    mobile-phone-store
    computer-store
    video-game-store
  furniture-store
  home-goods-store
  home-improvement-store
    hardware-store
    garden-center
  sporting-goods-store
  bicycle-shop
  bookstore
  office-supply-store
  gift-shop
  toy-store
  pet-store
  florist
  optician
  thrift-store
  antique-store
  music-store
  art-store
  craft-store
  fabric-store
  tobacco-shop
  cannabis-dispensary
  newsstand
  photo-store
  pawn-shop
  medical-supply-store
  vitamin-store
health-medicine
  pharmacy
  hospital
  clinic
  doctor
  dentist
  optometrist
  physical-therapy
  mental-health
  alternative-medicine
  medical-lab
  veterinarian
personal-care
  hair-salon
  barber
  beauty-salon
  nail-salon
  spa
  massage
  tattoo-parlor
  laundry
  dry-cleaning
  tailor
  funeral-home
automotive
  gas-station
  ev-charging-station
  car-wash
  car-repair
  car-dealer
  motorcycle-dealer
  auto-parts-store
  tire-shop
  parking
hotel-lodging
  hotel
  motel
  hostel
  bed-breakfast
  resort
  vacation-rental
  campground
  rv-park
financial-service
  bank
  atm
  money-transfer
  insurance-agency
  accountant
  financial-advisor
travel-transportation
  airport
  train-station
  bus-station
  ferry-terminal
  taxi
  car-rental
  bike-rental
  travel-agency
arts-entertainment
  museum
  art-gallery
  arts-center
  movie-theater
  theater
  music-venue
  event-venue
  casino
  amusement-park
  water-park
  zoo
  aquarium
  bowling-alley
  arcade
  escape-room
  tourist-attraction
  viewpoint
sports-recreation
  gym
  sports-center
  sports-club
  dance-studio
  stadium
  golf-course
  swimming-pool
  ice-rink
  marina
  park
    playground
    dog-park
    garden
    nature-reserve
  beach
education
  school
  college-university
  preschool
  childcare
  library
  driving-school
  language-school
  music-school
community-government
  government-building
  post-office
  police-station
  fire-station
  courthouse
  embassy
  community-center
  social-facility
  non-profit
  place-of-worship
    church
    mosque
    synagogue
    temple
professional-services
  office
  lawyer
  real-estate-agent
  employment-agency
  coworking-space
  telecom
  architect
  advertising-agency
  media-company
  photographer
  storage-facility
  home-services
  caterer
`;

/**
 * OSM `key=value` to category. Keys are tried in {@link PLACE_KEYS} order; a key absent here but listed in
 * {@link KEY_FALLBACK} still makes a place (e.g. any named `shop=*` is `shopping-retail`).
 */
const TAGS = `
amenity=restaurant restaurant
amenity=fast_food fast-food-restaurant
amenity=cafe coffee-shop
amenity=internet_cafe coffee-shop
amenity=bar bar
amenity=pub pub
amenity=biergarten bar
amenity=nightclub night-club
amenity=ice_cream ice-cream-shop
amenity=food_court food-court
amenity=fuel gas-station
amenity=charging_station ev-charging-station
amenity=car_wash car-wash
amenity=car_rental car-rental
amenity=bicycle_rental bike-rental
amenity=parking parking
amenity=bank bank
amenity=atm atm
amenity=bureau_de_change money-transfer
amenity=money_transfer money-transfer
amenity=pharmacy pharmacy
amenity=hospital hospital
amenity=clinic clinic
amenity=doctors doctor
amenity=dentist dentist
amenity=veterinary veterinarian
amenity=school school
amenity=college college-university
amenity=university college-university
amenity=kindergarten preschool
amenity=childcare childcare
amenity=library library
amenity=driving_school driving-school
amenity=language_school language-school
amenity=music_school music-school
amenity=townhall government-building
amenity=post_office post-office
amenity=police police-station
amenity=fire_station fire-station
amenity=courthouse courthouse
amenity=embassy embassy
amenity=community_centre community-center
amenity=social_facility social-facility
amenity=social_centre community-center
amenity=place_of_worship place-of-worship
amenity=cinema movie-theater
amenity=theatre theater
amenity=arts_centre arts-center
amenity=music_venue music-venue
amenity=events_venue event-venue
amenity=conference_centre event-venue
amenity=casino casino
amenity=gambling casino
amenity=marketplace farmers-market
amenity=bus_station bus-station
amenity=ferry_terminal ferry-terminal
amenity=taxi taxi
amenity=coworking_space coworking-space
amenity=funeral_hall funeral-home
amenity=spa spa
shop=supermarket supermarket
shop=grocery grocery-store
shop=greengrocer grocery-store
shop=health_food grocery-store
shop=convenience convenience-store
shop=alcohol liquor-store
shop=beverages liquor-store
shop=wine liquor-store
shop=bakery bakery
shop=pastry bakery
shop=confectionery candy-store
shop=chocolate candy-store
shop=butcher butcher
shop=seafood seafood-market
shop=deli deli
shop=cheese deli
shop=farm farmers-market
shop=coffee coffee-shop
shop=tea tea-house
shop=ice_cream ice-cream-shop
shop=department_store department-store
shop=wholesale warehouse-club
shop=variety_store variety-store
shop=general variety-store
shop=mall shopping-mall
shop=clothes clothing-store
shop=boutique clothing-store
shop=fashion clothing-store
shop=fashion_accessories clothing-store
shop=bag clothing-store
shop=baby_goods clothing-store
shop=shoes shoe-store
shop=jewelry jewelry-store
shop=watches jewelry-store
shop=cosmetics cosmetics-store
shop=perfumery cosmetics-store
shop=hairdresser_supply cosmetics-store
shop=electronics electronics-store
shop=appliance electronics-store
shop=hifi electronics-store
shop=mobile_phone mobile-phone-store
shop=telecommunication mobile-phone-store
shop=computer computer-store
shop=video_games video-game-store
shop=furniture furniture-store
shop=bed furniture-store
shop=interior_decoration home-goods-store
shop=houseware home-goods-store
shop=kitchen home-goods-store
shop=lighting home-goods-store
shop=curtain home-goods-store
shop=carpet home-goods-store
shop=doityourself home-improvement-store
shop=trade home-improvement-store
shop=flooring home-improvement-store
shop=tiles home-improvement-store
shop=bathroom_furnishing home-improvement-store
shop=hardware hardware-store
shop=paint hardware-store
shop=electrical hardware-store
shop=locksmith home-services
shop=garden_centre garden-center
shop=sports sporting-goods-store
shop=outdoor sporting-goods-store
shop=fishing sporting-goods-store
shop=golf sporting-goods-store
shop=dive sporting-goods-store
shop=surf sporting-goods-store
shop=weapons sporting-goods-store
shop=bicycle bicycle-shop
shop=books bookstore
shop=stationery office-supply-store
shop=copyshop office-supply-store
shop=gift gift-shop
shop=souvenir gift-shop
shop=toys toy-store
shop=pet pet-store
shop=florist florist
shop=optician optician
shop=second_hand thrift-store
shop=charity thrift-store
shop=antiques antique-store
shop=music music-store
shop=musical_instrument music-store
shop=art art-store
shop=frame art-store
shop=craft craft-store
shop=fabric fabric-store
shop=sewing fabric-store
shop=tobacco tobacco-shop
shop=e-cigarette tobacco-shop
shop=cannabis cannabis-dispensary
shop=newsagent newsstand
shop=kiosk newsstand
shop=photo photo-store
shop=pawnbroker pawn-shop
shop=money_lender money-transfer
shop=medical_supply medical-supply-store
shop=hearing_aids medical-supply-store
shop=nutrition_supplements vitamin-store
shop=chemist pharmacy
shop=hairdresser hair-salon
shop=beauty beauty-salon
shop=massage massage
shop=tattoo tattoo-parlor
shop=laundry laundry
shop=dry_cleaning dry-cleaning
shop=tailor tailor
shop=funeral_directors funeral-home
shop=car car-dealer
shop=car_repair car-repair
shop=car_parts auto-parts-store
shop=tyres tire-shop
shop=motorcycle motorcycle-dealer
shop=fuel gas-station
shop=travel_agency travel-agency
shop=storage_rental storage-facility
tourism=hotel hotel
tourism=motel motel
tourism=hostel hostel
tourism=guest_house bed-breakfast
tourism=apartment vacation-rental
tourism=chalet vacation-rental
tourism=camp_site campground
tourism=caravan_site rv-park
tourism=museum museum
tourism=gallery art-gallery
tourism=zoo zoo
tourism=aquarium aquarium
tourism=theme_park amusement-park
tourism=attraction tourist-attraction
tourism=viewpoint viewpoint
healthcare=pharmacy pharmacy
healthcare=hospital hospital
healthcare=clinic clinic
healthcare=dialysis clinic
healthcare=doctor doctor
healthcare=audiologist doctor
healthcare=podiatrist doctor
healthcare=dentist dentist
healthcare=optometrist optometrist
healthcare=physiotherapist physical-therapy
healthcare=rehabilitation physical-therapy
healthcare=psychotherapist mental-health
healthcare=counselling mental-health
healthcare=alternative alternative-medicine
healthcare=laboratory medical-lab
healthcare=blood_donation medical-lab
leisure=fitness_centre gym
leisure=sports_centre sports-center
leisure=sports_hall sports-center
leisure=dance dance-studio
leisure=stadium stadium
leisure=golf_course golf-course
leisure=miniature_golf golf-course
leisure=swimming_pool swimming-pool
leisure=water_park water-park
leisure=ice_rink ice-rink
leisure=marina marina
leisure=park park
leisure=playground playground
leisure=dog_park dog-park
leisure=garden garden
leisure=nature_reserve nature-reserve
leisure=beach_resort beach
leisure=resort resort
leisure=bowling_alley bowling-alley
leisure=amusement_arcade arcade
leisure=adult_gaming_centre casino
leisure=escape_game escape-room
leisure=trampoline_park amusement-park
leisure=horse_riding sports-club
leisure=sauna spa
natural=beach beach
aeroway=aerodrome airport
railway=station train-station
office=lawyer lawyer
office=estate_agent real-estate-agent
office=accountant accountant
office=tax_advisor accountant
office=insurance insurance-agency
office=financial financial-advisor
office=financial_advisor financial-advisor
office=employment_agency employment-agency
office=coworking coworking-space
office=telecommunication telecom
office=architect architect
office=advertising_agency advertising-agency
office=newspaper media-company
office=government government-building
office=diplomatic embassy
office=ngo non-profit
office=association non-profit
office=charity non-profit
office=travel_agent travel-agency
office=physician doctor
office=moving_company home-services
office=educational_institution education
craft=electrician home-services
craft=plumber home-services
craft=carpenter home-services
craft=hvac home-services
craft=roofer home-services
craft=painter home-services
craft=locksmith home-services
craft=key_cutter home-services
craft=gardener home-services
craft=brewery brewery
craft=distillery brewery
craft=winery brewery
craft=caterer caterer
craft=photographer photographer
craft=tailor tailor
craft=jeweller jewelry-store
craft=confectionery candy-store
`;

/** `cuisine=*` of a restaurant or fast-food place adds a more specific category. */
const CUISINES = `
american american-restaurant
asian asian-restaurant
chinese chinese-restaurant
japanese japanese-restaurant
ramen japanese-restaurant
sushi sushi-restaurant
korean korean-restaurant
thai thai-restaurant
vietnamese vietnamese-restaurant
indian indian-restaurant
filipino filipino-restaurant
mexican mexican-restaurant
tex-mex mexican-restaurant
tacos mexican-restaurant
burrito mexican-restaurant
italian italian-restaurant
french french-restaurant
mediterranean mediterranean-restaurant
greek greek-restaurant
middle_eastern middle-eastern-restaurant
lebanese middle-eastern-restaurant
kebab middle-eastern-restaurant
latin_american latin-american-restaurant
peruvian latin-american-restaurant
hawaiian hawaiian-restaurant
poke hawaiian-restaurant
seafood seafood-restaurant
fish_and_chips seafood-restaurant
steak_house steakhouse
barbecue barbecue-restaurant
bbq barbecue-restaurant
breakfast breakfast-brunch
pancake breakfast-brunch
burger burger-joint
pizza pizza-place
sandwich sandwich-shop
sub sandwich-shop
chicken chicken-restaurant
fried_chicken chicken-restaurant
wings chicken-restaurant
vegetarian vegetarian-restaurant
vegan vegetarian-restaurant
coffee_shop coffee-shop
donut donut-shop
ice_cream ice-cream-shop
frozen_yogurt ice-cream-shop
dessert dessert-shop
juice juice-bar
smoothie juice-bar
bubble_tea tea-house
tea tea-house
bagel bakery
`;

/** `religion=*` of a place of worship. */
const RELIGIONS: Readonly<Record<string, string>> = {
  christian: 'church',
  muslim: 'mosque',
  jewish: 'synagogue',
  buddhist: 'temple',
  hindu: 'temple',
  sikh: 'temple',
  shinto: 'temple',
  taoist: 'temple',
};

/** Keys that make a named feature a place, most telling first (amenity=fuel beats shop=convenience). */
export const PLACE_KEYS = [
  'amenity',
  'shop',
  'tourism',
  'healthcare',
  'leisure',
  'office',
  'craft',
  'aeroway',
  'railway',
  'natural',
] as const;

/** The category of a value this table does not know, per key; keys absent here need a known value. */
const KEY_FALLBACK: Readonly<Record<string, string>> = {
  shop: 'shopping-retail',
  healthcare: 'health-medicine',
  office: 'office',
  craft: 'home-services',
};

/** Values that are never places even when named (`shop=no`, a vacant shop). */
const NOT_PLACES = new Set(['no', 'vacant', 'disused', 'none']);

function parseTree(text: string): Map<string, string | null> {
  const parents = new Map<string, string | null>();
  const stack: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const depth = (line.length - line.trimStart().length) / 2;
    const slug = line.trim();
    stack.length = depth;
    parents.set(slug, depth > 0 ? (stack[depth - 1] ?? null) : null);
    stack.push(slug);
  }
  return parents;
}

function parsePairs(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const [key, slug] = line.trim().split(/\s+/);
    if (key && slug) out.set(key, slug);
  }
  return out;
}

/** Every category slug with its parent (null at the top). */
export const CATEGORY_PARENTS: ReadonlyMap<string, string | null> = parseTree(TREE);
/** `key=value` → category slug. */
export const TAG_CATEGORIES: ReadonlyMap<string, string> = parsePairs(TAGS);
const CUISINE_CATEGORIES = parsePairs(CUISINES);

for (const [tag, slug] of [...TAG_CATEGORIES, ...CUISINE_CATEGORIES, ...Object.entries(KEY_FALLBACK)]) {
  if (!CATEGORY_PARENTS.has(slug)) throw new Error(`category table: ${tag} maps to unknown category ${slug}`);
}

/** A category and its ancestors, most specific first. */
export function withAncestors(slug: string): string[] {
  const out: string[] = [];
  for (let s: string | null | undefined = slug; s; s = CATEGORY_PARENTS.get(s)) out.push(s);
  return out;
}

/** What makes a feature a place: the OSM tag it is classified by (e.g. `amenity/cafe`) and its categories. */
export interface PlaceClass {
  /** `key/value` of the tag that classified it, the form NSI paths use. */
  tag: string;
  categories: string[];
}

/**
 * The categories of a feature from its tags, most specific first with every ancestor; null when no tag
 * makes it a place. Every place key that maps adds its categories (a fuel station with `shop=convenience`
 * is also a convenience store); the first one is the place's primary tag.
 */
export function classifyTags(tags: OsmTags): PlaceClass | null {
  let primary: string | undefined;
  const specific: string[] = [];
  for (const key of PLACE_KEYS) {
    const value = tags[key];
    if (!value || NOT_PLACES.has(value)) continue;
    const slug = TAG_CATEGORIES.get(`${key}=${value}`) ?? KEY_FALLBACK[key];
    if (!slug) continue;
    primary ??= `${key}/${value}`;
    if (slug === 'place-of-worship') {
      const religion = RELIGIONS[tags.religion ?? ''];
      if (religion) specific.push(religion);
    }
    if (slug === 'restaurant' || slug === 'fast-food-restaurant') {
      for (const c of (tags.cuisine ?? '').split(';')) {
        const cuisine = CUISINE_CATEGORIES.get(c.trim().toLowerCase());
        if (cuisine) specific.push(cuisine);
      }
    }
    specific.push(slug);
  }
  if (!primary) return null;
  const categories: string[] = [];
  for (const slug of specific) for (const c of withAncestors(slug)) if (!categories.includes(c)) categories.push(c);
  return { tag: primary, categories };
}

/**
 * Named groups of categories for `GET /v1/search/places?groups=`: a place is in a group when any of its
 * categories (ancestors included) is listed. Documented in docs/places-categories.md.
 */
export const CATEGORY_GROUPS: Readonly<Record<string, readonly string[]>> = {
  'quick-service': [
    'fast-food-restaurant',
    'coffee-shop',
    'sandwich-shop',
    'pizza-place',
    'burger-joint',
    'chicken-restaurant',
    'donut-shop',
    'ice-cream-shop',
    'juice-bar',
  ],
  dining: ['restaurant'],
  coffee: ['coffee-shop', 'tea-house'],
  nightlife: ['bar', 'nightlife'],
  fuel: ['gas-station', 'ev-charging-station'],
  groceries: ['grocery-store', 'convenience-store'],
  'big-box': ['department-store', 'warehouse-club', 'home-improvement-store', 'supermarket'],
  retail: ['shopping-retail'],
  health: ['health-medicine'],
  lodging: ['hotel-lodging'],
  banking: ['bank', 'atm'],
  travel: ['airport', 'train-station', 'bus-station', 'ferry-terminal', 'car-rental'],
  automotive: ['automotive'],
  entertainment: ['arts-entertainment', 'nightlife'],
  fitness: ['gym', 'sports-center', 'sports-club', 'dance-studio'],
  outdoors: ['park', 'beach', 'campground', 'marina'],
  education: ['education'],
  civic: ['community-government'],
};

for (const [group, slugs] of Object.entries(CATEGORY_GROUPS)) {
  for (const slug of slugs) {
    if (!CATEGORY_PARENTS.has(slug)) throw new Error(`category group ${group} names unknown category ${slug}`);
  }
}
