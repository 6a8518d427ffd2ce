/** Zulip 9.0's emoji names, U+1F900 and above: supplemental symbols and pictographs. Format: see index.ts. */
export const SUPPLEMENTAL = `
1f90c pinched_fingers fingers hand_gesture interrogation pinched sarcastic
1f90d white_heart
1f90e brown_heart
1f90f pinching_hand small_amount
1f910 silence quiet hush zip_it lips_are_sealed
1f911 money_face kaching
1f912 sick flu face_with_thermometer ill fever
1f913 nerd geek
1f914 thinking
1f915 hurt head_bandage injured
1f916 robot
1f917 hug arms_open
1f918 rock_on sign_of_the_horns
1f919 call_me
1f91a stop
1f91b left_fist
1f91c right_fist
1f91d handshake done_deal
1f91e fingers_crossed
1f91f love_you_gesture ily
1f920 cowboy
1f921 clown
1f922 nauseated queasy
1f923 rolling_on_the_floor_laughing rofl
1f924 drooling
1f925 lying
1f926 face_palm
1f926-200d-2640 woman_facepalming
1f926-200d-2642 man_facepalming
1f927 sneezing
1f928 face_with_raised_eyebrow distrust skeptic
1f929 star_struck
1f92a zany_face goofy small
1f92b shushing_face shush
1f92c face_with_symbols_on_mouth swearing
1f92d face_with_hand_over_mouth whoops
1f92e face_vomiting puke vomit
1f92f exploding_head mind_blown shocked
1f930 pregnant expecting
1f931 breast_feeding breast
1f932 palms_up_together prayer
1f933 selfie
1f934 prince
1f935 tuxedo
1f935-200d-2640 woman_in_tuxedo
1f935-200d-2642 man_in_tuxedo
1f936 mother_christmas mrs_claus
1f937 shrug
1f937-200d-2640 woman_shrugging
1f937-200d-2642 man_shrugging
1f938 cartwheel acrobatics gymnastics tumbling
1f938-200d-2640 woman_cartwheeling
1f938-200d-2642 man_cartwheeling
1f939 juggling
1f939-200d-2640 woman_juggling
1f939-200d-2642 man_juggling
1f93a fencing
1f93c wrestling
1f93c-200d-2640 women_wrestling
1f93c-200d-2642 men_wrestling
1f93d water_polo
1f93d-200d-2640 woman_playing_water_polo
1f93d-200d-2642 man_playing_water_polo
1f93e handball
1f93e-200d-2640 woman_playing_handball
1f93e-200d-2642 man_playing_handball
1f93f diving_mask scuba snorkeling
1f940 wilted_flower crushed
1f941 drum
1f942 clink toast
1f943 small_glass
1f944 spoon
1f945 gooooooooal goal
1f947 first_place gold number_one
1f948 second_place silver
1f949 third_place bronze
1f94a boxing_glove
1f94b black_belt keikogi dogi martial_arts
1f94c curling_stone
1f94d lacrosse
1f94e softball glove underarm
1f94f flying_disc ultimate
1f950 croissant
1f951 avocado
1f952 cucumber
1f953 bacon
1f954 potato
1f955 carrot
1f956 baguette
1f957 salad
1f958 paella
1f959 doner_kebab shawarma souvlaki stuffed_flatbread
1f95a egg
1f95b milk glass_of_milk
1f95c peanuts
1f95d kiwi
1f95e pancakes breakfast
1f95f dumpling empanada gyōza jiaozi pierogi potsticker gyoza
1f960 fortune_cookie prophecy
1f961 takeout_box oyster_pail
1f962 chopsticks hashi
1f963 bowl_with_spoon cereal congee
1f964 cup_with_straw soda
1f965 coconut piña_colada pina_colada
1f966 broccoli wild_cabbage
1f967 pie filling pastry
1f968 pretzel twisted
1f969 cut_of_meat lambchop porkchop steak
1f96a sandwich
1f96b canned_food can
1f96c leafy_green bok_choy cabbage kale lettuce
1f96d mango fruit
1f96e moon_cake autumn festival yuèbǐng yuebing
1f96f bagel schmear
1f970 smiling_face_with_hearts adore crush
1f971 yawning_face bored yawn
1f972 smiling_face_with_tear grateful smiling tear touched
1f973 partying_face
1f974 woozy_face intoxicated tipsy uneven_eyes wavy_mouth
1f975 hot_face feverish heat_stroke red_faced sweating
1f976 cold_face blue_faced freezing frostbite icicles
1f977 ninja fighter hidden stealth
1f978 disguised_face disguise incognito
1f979 face_holding_back_tears resist
1f97a pleading_face begging mercy puppy_eyes
1f97b sari
1f97c lab_coat
1f97d goggles eye_protection swimming welding
1f97e hiking_boot backpacking hiking
1f97f flat_shoe ballet_flat slip_on slipper
1f980 crab
1f981 lion
1f982 scorpion
1f983 turkey
1f984 unicorn
1f985 eagle
1f986 duck
1f987 bat
1f988 shark
1f989 owl
1f98a fox
1f98b butterfly
1f98c deer
1f98d gorilla
1f98e lizard gecko
1f98f rhinoceros
1f990 shrimp
1f991 squid
1f992 giraffe spots
1f993 zebra stripe
1f994 hedgehog spiny
1f995 sauropod brachiosaurus brontosaurus diplodocus
1f996 t_rex tyrannosaurus_rex
1f997 cricket grasshopper
1f998 kangaroo joey jump marsupial
1f999 llama alpaca guanaco vicuña wool vicuna
1f99a peacock ostentatious peahen
1f99b hippopotamus hippo
1f99c parrot talk
1f99d raccoon curious sly
1f99e lobster bisque claws seafood
1f99f mosquito malaria
1f9a0 microbe amoeba
1f9a1 badger honey_badger pester
1f9a2 swan cygnet ugly_duckling
1f9a3 mammoth tusk woolly
1f9a4 dodo mauritius
1f9a5 sloth lazy slow
1f9a6 otter playful
1f9a7 orangutan ape
1f9a8 skunk stink
1f9a9 flamingo flamboyant
1f9aa oyster
1f9ab beaver dam
1f9ac bison buffalo herd wisent
1f9ad seal sea_lion
1f9ae guide_dog guide
1f9af white_cane
1f9b4 bone
1f9b5 leg limb
1f9b6 foot stomp
1f9b7 tooth dentist
1f9b8 superhero
1f9b8-200d-2640 woman_superhero
1f9b8-200d-2642 man_superhero
1f9b9 supervillain
1f9b9-200d-2640 woman_supervillain
1f9b9-200d-2642 man_supervillain
1f9ba safety_vest emergency vest
1f9bb ear_with_hearing_aid hard_of_hearing
1f9bc motorized_wheelchair
1f9bd manual_wheelchair
1f9be mechanical_arm
1f9bf mechanical_leg
1f9c0 cheese
1f9c1 cupcake
1f9c2 salt shaker
1f9c3 beverage_box beverage box straw
1f9c4 garlic
1f9c5 onion
1f9c6 falafel chickpea meatball
1f9c7 waffle indecisive iron
1f9c8 butter dairy
1f9c9 mate
1f9ca ice ice_cube iceberg
1f9cb bubble_tea
1f9cc troll fairy_tale fantasy monster
1f9cd person_standing stand
1f9cd-200d-2640 woman_standing
1f9cd-200d-2642 man_standing
1f9ce person_kneeling kneel
1f9ce-200d-2640 woman_kneeling
1f9ce-200d-2642 man_kneeling
1f9cf deaf_person hear
1f9cf-200d-2640 deaf_woman
1f9cf-200d-2642 deaf_man
1f9d0 face_with_monocle monocle stuffy
1f9d1 person
1f9d1-200d-2695 health_worker
1f9d1-200d-2696 judge
1f9d1-200d-2708 pilot
1f9d1-200d-1f33e farmer
1f9d1-200d-1f373 cook
1f9d1-200d-1f37c person_feeding_baby
1f9d1-200d-1f384 mx_claus claus_christmas
1f9d1-200d-1f393 student
1f9d1-200d-1f3a4 singer
1f9d1-200d-1f3a8 artist
1f9d1-200d-1f3eb teacher
1f9d1-200d-1f3ed factory_worker
1f9d1-200d-1f4bb technologist
1f9d1-200d-1f4bc office_worker
1f9d1-200d-1f527 mechanic
1f9d1-200d-1f52c scientist
1f9d1-200d-1f680 astronaut
1f9d1-200d-1f692 firefighter
1f9d1-200d-1f91d-200d-1f9d1 people_holding_hands hold holding_hands
1f9d1-200d-1f9af person_with_white_cane
1f9d1-200d-1f9b0 person_red_hair
1f9d1-200d-1f9b1 person_curly_hair
1f9d1-200d-1f9b2 person_bald
1f9d1-200d-1f9b3 person_white_hair
1f9d1-200d-1f9bc person_in_motorized_wheelchair
1f9d1-200d-1f9bd person_in_manual_wheelchair
1f9d2 child young
1f9d3 older_person old
1f9d4 person_beard
1f9d4-200d-2640 woman_beard
1f9d4-200d-2642 man_beard
1f9d5 woman_with_headscarf headscarf hijab mantilla tichel
1f9d6 person_in_steamy_room
1f9d6-200d-2640 woman_in_steamy_room
1f9d6-200d-2642 man_in_steamy_room
1f9d7 person_climbing
1f9d7-200d-2640 woman_climbing
1f9d7-200d-2642 man_climbing
1f9d8 person_in_lotus_position
1f9d8-200d-2640 woman_in_lotus_position
1f9d8-200d-2642 man_in_lotus_position
1f9d9 mage
1f9d9-200d-2640 woman_mage
1f9d9-200d-2642 man_mage
1f9da fairy
1f9da-200d-2640 woman_fairy
1f9da-200d-2642 man_fairy
1f9db vampire
1f9db-200d-2640 woman_vampire
1f9db-200d-2642 man_vampire
1f9dc merperson
1f9dc-200d-2640 mermaid
1f9dc-200d-2642 merman triton
1f9dd elf
1f9dd-200d-2640 woman_elf
1f9dd-200d-2642 man_elf
1f9de genie
1f9de-200d-2640 woman_genie
1f9de-200d-2642 man_genie
1f9df zombie
1f9df-200d-2640 woman_zombie
1f9df-200d-2642 man_zombie
1f9e0 brain intelligent
1f9e1 orange_heart
1f9e2 billed_cap baseball_cap
1f9e3 scarf neck
1f9e4 gloves
1f9e5 coat jacket
1f9e6 socks stocking
1f9e7 red_envelope good_luck hóngbāo lai_see hongbao
1f9e8 firecracker dynamite explosive
1f9e9 puzzle_piece interlocking jigsaw piece puzzle
1f9ea test_tube chemistry
1f9eb petri_dish biology culture
1f9ec dna evolution gene genetics life
1f9ed compass navigation orienteering
1f9ee abacus calculation
1f9ef fire_extinguisher extinguish quench
1f9f0 toolbox chest
1f9f1 brick bricks clay mortar wall
1f9f2 magnet attraction horseshoe
1f9f3 luggage packing travel
1f9f4 lotion_bottle lotion moisturizer shampoo sunscreen
1f9f5 thread spool string
1f9f6 yarn crochet knit
1f9f7 safety_pin diaper punk_rock
1f9f8 teddy_bear plaything plush stuffed
1f9f9 broom sweeping
1f9fa basket farming laundry picnic
1f9fb roll_of_paper paper_towels toilet_paper
1f9fc soap bar bathing lather soapdish
1f9fd sponge absorbing porous
1f9fe receipt accounting bookkeeping evidence proof
1f9ff nazar_amulet bead charm evil_eye nazar talisman
1fa70 ballet_shoes ballet
1fa71 one_piece_swimsuit
1fa72 briefs one_piece swimsuit
1fa73 shorts pants
1fa74 thong_sandal beach_sandals sandals thong_sandals thongs zōri zori
1fa78 drop_of_blood bleed blood_donation injury menstruation
1fa79 adhesive_bandage bandage
1fa7a stethoscope
1fa7b x_ray bones medical
1fa7c crutch cane disability mobility_aid
1fa80 yo_yo fluctuate
1fa81 kite soar
1fa82 parachute hang_glide parasail skydive
1fa83 boomerang rebound repercussion
1fa84 magic_wand magic
1fa85 piñata pinata
1fa86 nesting_dolls doll russia
1fa90 ringed_planet saturn saturnine
1fa91 chair sit
1fa92 razor sharp shave
1fa93 axe hatchet split
1fa94 diya_lamp diya lamp oil
1fa95 banjo stringed
1fa96 military_helmet army military soldier warrior
1fa97 accordion concertina squeeze_box
1fa98 long_drum beat conga rhythm
1fa99 coin metal
1fa9a carpentry_saw carpenter saw
1fa9b screwdriver
1fa9c ladder climb rung step
1fa9d hook crook curve ensnare selling_point
1fa9e mirror reflection reflector speculum
1fa9f window frame fresh_air opening transparent view
1faa0 plunger force_cup suction
1faa1 sewing_needle embroidery stitches sutures tailoring
1faa2 knot rope tangled twine twist
1faa3 bucket cask pail vat
1faa4 mouse_trap bait mousetrap snare trap
1faa5 toothbrush bathroom brush dental hygiene teeth
1faa6 headstone cemetery graveyard tombstone
1faa7 placard demonstration picket protest sign
1faa8 rock boulder heavy solid stone
1faa9 mirror_ball glitter
1faaa identification_card credentials license security
1faab low_battery electronic low_energy
1faac hamsa amulet fatima mary miriam protection
1fab0 fly maggot rotting
1fab1 worm annelid earthworm parasite
1fab2 beetle
1fab3 cockroach roach
1fab4 potted_plant boring grow nurturing useless
1fab5 wood log timber
1fab6 feather flight light plumage
1fab7 lotus purity
1fab8 coral reef
1fab9 empty_nest
1faba nest_with_eggs
1fac0 anatomical_heart anatomical cardiology pulse
1fac1 lungs breath exhalation inhalation respiration
1fac2 people_hugging goodbye thanks
1fac3 pregnant_man
1fac4 pregnant_person
1fac5 person_with_crown monarch noble regal royalty
1fad0 blueberries berry bilberry blueberry
1fad1 bell_pepper capsicum pepper vegetable
1fad2 olive
1fad3 flatbread arepa lavash naan pita
1fad4 tamale mexican wrapped
1fad5 fondue melted swiss
1fad6 teapot
1fad7 pouring_liquid spill
1fad8 beans kidney legume
1fad9 jar container sauce store
1fae0 melting_face dissolve liquid melt
1fae1 saluting_face salute troops yes
1fae2 face_with_open_eyes_and_hand_over_mouth amazement awe embarrass
1fae3 face_with_peeking_eye captivated peep stare
1fae4 face_with_diagonal_mouth meh skeptical unsure
1fae5 dotted_line_face depressed hide introvert invisible
1fae6 biting_lip flirting uncomfortable
1fae7 bubbles burp underwater
1faf0 hand_with_index_finger_and_thumb_crossed expensive snap
1faf1 rightwards_hand rightward
1faf2 leftwards_hand leftward
1faf3 palm_down_hand dismiss shoo
1faf4 palm_up_hand beckon come offer
1faf5 index_pointing_at_the_viewer point you
1faf6 heart_hands
`;
