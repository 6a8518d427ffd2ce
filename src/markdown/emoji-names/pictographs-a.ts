/** Zulip 9.0's emoji names, U+1F000–U+1F3FF: tiles, enclosed letters, weather, food, sport, buildings. Format: see index.ts. */
export const PICTOGRAPHS_A = `
1f004 mahjong
1f0cf joker
1f170 a
1f171 b
1f17e o
1f17f parking p
1f18e ab
1f191 cl
1f192 cool
1f193 free
1f194 id
1f195 new
1f196 ng
1f197 squared_ok
1f198 sos
1f199 squared_up
1f19a vs
1f1e6-1f1e8 flag_ascension_island
1f1e6-1f1e9 flag_andorra
1f1e6-1f1ea flag_united_arab_emirates
1f1e6-1f1eb flag_afghanistan
1f1e6-1f1ec flag_antigua_and_barbuda
1f1e6-1f1ee flag_anguilla
1f1e6-1f1f1 flag_albania
1f1e6-1f1f2 flag_armenia
1f1e6-1f1f4 flag_angola
1f1e6-1f1f6 flag_antarctica
1f1e6-1f1f7 flag_argentina
1f1e6-1f1f8 flag_american_samoa
1f1e6-1f1f9 flag_austria
1f1e6-1f1fa flag_australia
1f1e6-1f1fc flag_aruba
1f1e6-1f1fd flag_åland_islands flag_aland_islands
1f1e6-1f1ff flag_azerbaijan
1f1e7-1f1e6 flag_bosnia_and_herzegovina
1f1e7-1f1e7 flag_barbados
1f1e7-1f1e9 flag_bangladesh
1f1e7-1f1ea flag_belgium
1f1e7-1f1eb flag_burkina_faso
1f1e7-1f1ec flag_bulgaria
1f1e7-1f1ed flag_bahrain
1f1e7-1f1ee flag_burundi
1f1e7-1f1ef flag_benin
1f1e7-1f1f1 flag_st_barthélemy flag_st_barthelemy
1f1e7-1f1f2 flag_bermuda
1f1e7-1f1f3 flag_brunei
1f1e7-1f1f4 flag_bolivia
1f1e7-1f1f6 flag_caribbean_netherlands
1f1e7-1f1f7 flag_brazil
1f1e7-1f1f8 flag_bahamas
1f1e7-1f1f9 flag_bhutan
1f1e7-1f1fb flag_bouvet_island
1f1e7-1f1fc flag_botswana
1f1e7-1f1fe flag_belarus
1f1e7-1f1ff flag_belize
1f1e8-1f1e6 flag_canada
1f1e8-1f1e8 flag_cocos_keeling_islands
1f1e8-1f1e9 flag_congo_kinshasa
1f1e8-1f1eb flag_central_african_republic
1f1e8-1f1ec flag_congo_brazzaville
1f1e8-1f1ed flag_switzerland
1f1e8-1f1ee flag_côte_divoire flag_cote_divoire
1f1e8-1f1f0 flag_cook_islands
1f1e8-1f1f1 flag_chile
1f1e8-1f1f2 flag_cameroon
1f1e8-1f1f3 flag_china
1f1e8-1f1f4 flag_colombia
1f1e8-1f1f5 flag_clipperton_island
1f1e8-1f1f7 flag_costa_rica
1f1e8-1f1fa flag_cuba
1f1e8-1f1fb flag_cape_verde
1f1e8-1f1fc flag_curaçao flag_curacao
1f1e8-1f1fd flag_christmas_island
1f1e8-1f1fe flag_cyprus
1f1e8-1f1ff flag_czechia
1f1e9-1f1ea flag_germany
1f1e9-1f1ec flag_diego_garcia
1f1e9-1f1ef flag_djibouti
1f1e9-1f1f0 flag_denmark
1f1e9-1f1f2 flag_dominica
1f1e9-1f1f4 flag_dominican_republic
1f1e9-1f1ff flag_algeria
1f1ea-1f1e6 flag_ceuta_and_melilla
1f1ea-1f1e8 flag_ecuador
1f1ea-1f1ea flag_estonia
1f1ea-1f1ec flag_egypt
1f1ea-1f1ed flag_western_sahara
1f1ea-1f1f7 flag_eritrea
1f1ea-1f1f8 flag_spain
1f1ea-1f1f9 flag_ethiopia
1f1ea-1f1fa flag_european_union
1f1eb-1f1ee flag_finland
1f1eb-1f1ef flag_fiji
1f1eb-1f1f0 flag_falkland_islands
1f1eb-1f1f2 flag_micronesia
1f1eb-1f1f4 flag_faroe_islands
1f1eb-1f1f7 flag_france
1f1ec-1f1e6 flag_gabon
1f1ec-1f1e7 flag_united_kingdom
1f1ec-1f1e9 flag_grenada
1f1ec-1f1ea flag_georgia
1f1ec-1f1eb flag_french_guiana
1f1ec-1f1ec flag_guernsey
1f1ec-1f1ed flag_ghana
1f1ec-1f1ee flag_gibraltar
1f1ec-1f1f1 flag_greenland
1f1ec-1f1f2 flag_gambia
1f1ec-1f1f3 flag_guinea
1f1ec-1f1f5 flag_guadeloupe
1f1ec-1f1f6 flag_equatorial_guinea
1f1ec-1f1f7 flag_greece
1f1ec-1f1f8 flag_south_georgia_and_south_sandwich_islands
1f1ec-1f1f9 flag_guatemala
1f1ec-1f1fa flag_guam
1f1ec-1f1fc flag_guinea_bissau
1f1ec-1f1fe flag_guyana
1f1ed-1f1f0 flag_hong_kong_sar_china
1f1ed-1f1f2 flag_heard_and_mcdonald_islands
1f1ed-1f1f3 flag_honduras
1f1ed-1f1f7 flag_croatia
1f1ed-1f1f9 flag_haiti
1f1ed-1f1fa flag_hungary
1f1ee-1f1e8 flag_canary_islands
1f1ee-1f1e9 flag_indonesia
1f1ee-1f1ea flag_ireland
1f1ee-1f1f1 flag_israel
1f1ee-1f1f2 flag_isle_of_man
1f1ee-1f1f3 flag_india
1f1ee-1f1f4 flag_british_indian_ocean_territory
1f1ee-1f1f6 flag_iraq
1f1ee-1f1f7 flag_iran
1f1ee-1f1f8 flag_iceland
1f1ee-1f1f9 flag_italy
1f1ef-1f1ea flag_jersey
1f1ef-1f1f2 flag_jamaica
1f1ef-1f1f4 flag_jordan
1f1ef-1f1f5 flag_japan
1f1f0-1f1ea flag_kenya
1f1f0-1f1ec flag_kyrgyzstan
1f1f0-1f1ed flag_cambodia
1f1f0-1f1ee flag_kiribati
1f1f0-1f1f2 flag_comoros
1f1f0-1f1f3 flag_st_kitts_and_nevis
1f1f0-1f1f5 flag_north_korea
1f1f0-1f1f7 flag_south_korea
1f1f0-1f1fc flag_kuwait
1f1f0-1f1fe flag_cayman_islands
1f1f0-1f1ff flag_kazakhstan
1f1f1-1f1e6 flag_laos
1f1f1-1f1e7 flag_lebanon
1f1f1-1f1e8 flag_st_lucia
1f1f1-1f1ee flag_liechtenstein
1f1f1-1f1f0 flag_sri_lanka
1f1f1-1f1f7 flag_liberia
1f1f1-1f1f8 flag_lesotho
1f1f1-1f1f9 flag_lithuania
1f1f1-1f1fa flag_luxembourg
1f1f1-1f1fb flag_latvia
1f1f1-1f1fe flag_libya
1f1f2-1f1e6 flag_morocco
1f1f2-1f1e8 flag_monaco
1f1f2-1f1e9 flag_moldova
1f1f2-1f1ea flag_montenegro
1f1f2-1f1eb flag_st_martin
1f1f2-1f1ec flag_madagascar
1f1f2-1f1ed flag_marshall_islands
1f1f2-1f1f0 flag_north_macedonia
1f1f2-1f1f1 flag_mali
1f1f2-1f1f2 flag_myanmar_burma
1f1f2-1f1f3 flag_mongolia
1f1f2-1f1f4 flag_macao_sar_china
1f1f2-1f1f5 flag_northern_mariana_islands
1f1f2-1f1f6 flag_martinique
1f1f2-1f1f7 flag_mauritania
1f1f2-1f1f8 flag_montserrat
1f1f2-1f1f9 flag_malta
1f1f2-1f1fa flag_mauritius
1f1f2-1f1fb flag_maldives
1f1f2-1f1fc flag_malawi
1f1f2-1f1fd flag_mexico
1f1f2-1f1fe flag_malaysia
1f1f2-1f1ff flag_mozambique
1f1f3-1f1e6 flag_namibia
1f1f3-1f1e8 flag_new_caledonia
1f1f3-1f1ea flag_niger
1f1f3-1f1eb flag_norfolk_island
1f1f3-1f1ec flag_nigeria
1f1f3-1f1ee flag_nicaragua
1f1f3-1f1f1 flag_netherlands
1f1f3-1f1f4 flag_norway
1f1f3-1f1f5 flag_nepal
1f1f3-1f1f7 flag_nauru
1f1f3-1f1fa flag_niue
1f1f3-1f1ff flag_new_zealand
1f1f4-1f1f2 flag_oman
1f1f5-1f1e6 flag_panama
1f1f5-1f1ea flag_peru
1f1f5-1f1eb flag_french_polynesia
1f1f5-1f1ec flag_papua_new_guinea
1f1f5-1f1ed flag_philippines
1f1f5-1f1f0 flag_pakistan
1f1f5-1f1f1 flag_poland
1f1f5-1f1f2 flag_st_pierre_and_miquelon
1f1f5-1f1f3 flag_pitcairn_islands
1f1f5-1f1f7 flag_puerto_rico
1f1f5-1f1f8 flag_palestinian_territories
1f1f5-1f1f9 flag_portugal
1f1f5-1f1fc flag_palau
1f1f5-1f1fe flag_paraguay
1f1f6-1f1e6 flag_qatar
1f1f7-1f1ea flag_réunion flag_reunion
1f1f7-1f1f4 flag_romania
1f1f7-1f1f8 flag_serbia
1f1f7-1f1fa flag_russia
1f1f7-1f1fc flag_rwanda
1f1f8-1f1e6 flag_saudi_arabia
1f1f8-1f1e7 flag_solomon_islands
1f1f8-1f1e8 flag_seychelles
1f1f8-1f1e9 flag_sudan
1f1f8-1f1ea flag_sweden
1f1f8-1f1ec flag_singapore
1f1f8-1f1ed flag_st_helena
1f1f8-1f1ee flag_slovenia
1f1f8-1f1ef flag_svalbard_and_jan_mayen
1f1f8-1f1f0 flag_slovakia
1f1f8-1f1f1 flag_sierra_leone
1f1f8-1f1f2 flag_san_marino
1f1f8-1f1f3 flag_senegal
1f1f8-1f1f4 flag_somalia
1f1f8-1f1f7 flag_suriname
1f1f8-1f1f8 flag_south_sudan
1f1f8-1f1f9 flag_são_tomé_and_príncipe flag_sao_tome_and_principe
1f1f8-1f1fb flag_el_salvador
1f1f8-1f1fd flag_sint_maarten
1f1f8-1f1fe flag_syria
1f1f8-1f1ff flag_eswatini
1f1f9-1f1e6 flag_tristan_da_cunha
1f1f9-1f1e8 flag_turks_and_caicos_islands
1f1f9-1f1e9 flag_chad
1f1f9-1f1eb flag_french_southern_territories
1f1f9-1f1ec flag_togo
1f1f9-1f1ed flag_thailand
1f1f9-1f1ef flag_tajikistan
1f1f9-1f1f0 flag_tokelau
1f1f9-1f1f1 flag_timor_leste
1f1f9-1f1f2 flag_turkmenistan
1f1f9-1f1f3 flag_tunisia
1f1f9-1f1f4 flag_tonga
1f1f9-1f1f7 flag_turkey
1f1f9-1f1f9 flag_trinidad_and_tobago
1f1f9-1f1fb flag_tuvalu
1f1f9-1f1fc flag_taiwan
1f1f9-1f1ff flag_tanzania
1f1fa-1f1e6 flag_ukraine
1f1fa-1f1ec flag_uganda
1f1fa-1f1f2 flag_us_outlying_islands
1f1fa-1f1f3 flag_united_nations
1f1fa-1f1f8 flag_united_states
1f1fa-1f1fe flag_uruguay
1f1fa-1f1ff flag_uzbekistan
1f1fb-1f1e6 flag_vatican_city
1f1fb-1f1e8 flag_st_vincent_and_grenadines
1f1fb-1f1ea flag_venezuela
1f1fb-1f1ec flag_british_virgin_islands
1f1fb-1f1ee flag_us_virgin_islands
1f1fb-1f1f3 flag_vietnam
1f1fb-1f1fa flag_vanuatu
1f1fc-1f1eb flag_wallis_and_futuna
1f1fc-1f1f8 flag_samoa
1f1fd-1f1f0 flag_kosovo
1f1fe-1f1ea flag_yemen
1f1fe-1f1f9 flag_mayotte
1f1ff-1f1e6 flag_south_africa
1f1ff-1f1f2 flag_zambia
1f1ff-1f1fc flag_zimbabwe
1f201 japanese_here_button here ココ
1f202 japanese_service_charge_button service_charge サ
1f21a japanese_free_of_charge_button u7121
1f22f japanese_reserved_button reserved 指
1f232 japanese_prohibited_button u7981
1f233 japanese_vacancy_button vacancy 空
1f234 japanese_passing_grade_button u5408
1f235 japanese_no_vacancy_button u6e80
1f236 japanese_not_free_of_charge_button u6709
1f237 japanese_monthly_amount_button u6708
1f238 japanese_application_button u7533
1f239 japanese_discount_button u5272
1f23a japanese_open_for_business_button u55b6
1f250 japanese_bargain_button ideograph_advantage
1f251 japanese_acceptable_button accept
1f300 cyclone hurricane typhoon
1f301 foggy
1f302 closed_umbrella
1f303 night
1f304 mountain_sunrise
1f305 sunrise ocean_sunrise
1f306 sunset
1f307 city_sunrise
1f308 rainbow pride lgbtq
1f309 bridge
1f30a ocean
1f30b volcano
1f30c milky_way night_sky
1f30d earth_africa
1f30e earth_americas
1f30f earth_asia
1f310 www globe
1f311 new_moon
1f312 waxing_crescent_moon waxing
1f313 first_quarter_moon
1f314 waxing_moon
1f315 full_moon
1f316 waning_gibbous_moon gibbous
1f317 last_quarter_moon
1f318 waning_crescent_moon
1f319 moon
1f31a new_moon_face
1f31b goodnight
1f31c last_quarter_moon_face
1f31d moon_face
1f31e sun_face
1f31f glowing_star
1f320 shooting_star wish
1f321 temperature thermometer warm
1f324 mostly_sunny
1f325 cloudy
1f326 sunshowers sun_and_rain partly_sunny_with_rain
1f327 rainy soaked drenched
1f328 snowy snowstorm
1f329 lightning lightning_storm
1f32a tornado
1f32b fog hazy
1f32c windy mother_nature
1f32d hotdog
1f32e taco
1f32f burrito
1f330 chestnut
1f331 seedling sprout
1f332 evergreen_tree
1f333 tree deciduous_tree
1f334 palm_tree
1f335 cactus
1f336 hot_pepper chili_pepper
1f337 tulip flower
1f338 cherry_blossom
1f339 rose
1f33a hibiscus
1f33b sunflower
1f33c blossom
1f33d corn maize
1f33e harvest ear_of_rice
1f33f herb plant
1f340 lucky four_leaf_clover
1f341 maple_leaf
1f342 fallen_leaf
1f343 leaves wind fall
1f344 mushroom
1f345 tomato
1f346 eggplant
1f347 grapes
1f348 melon
1f349 watermelon
1f34a orange tangerine mandarin
1f34b lemon
1f34c banana
1f34d pineapple
1f34e apple
1f34f green_apple
1f350 pear
1f351 peach
1f352 cherries
1f353 strawberry
1f354 hamburger
1f355 pizza
1f356 meat
1f357 drumstick poultry
1f358 senbei rice_cracker
1f359 onigiri
1f35a rice
1f35b curry
1f35c ramen noodles
1f35d spaghetti
1f35e bread
1f35f fries
1f360 yam sweet_potato
1f361 dango
1f362 oden
1f363 sushi
1f364 tempura
1f365 naruto
1f366 soft_serve soft_ice_cream
1f367 shaved_ice
1f368 ice_cream gelato
1f369 donut doughnut
1f36a cookie
1f36b chocolate
1f36c candy
1f36d lollipop
1f36e custard flan
1f36f honey
1f370 cake
1f371 bento
1f372 food soup stew
1f373 cooking
1f374 fork_and_knife eating_utensils
1f375 tea
1f376 sake
1f377 wine
1f378 cocktail
1f379 tropical_drink
1f37a beer
1f37b beers
1f37c baby_bottle
1f37d hungry meal table_setting fork_and_knife_with_plate lets_eat
1f37e champagne
1f37f popcorn
1f380 ribbon decoration
1f381 gift present
1f382 birthday
1f383 jack-o-lantern pumpkin
1f384 holiday_tree
1f385 santa
1f386 fireworks
1f387 sparkler
1f388 balloon celebration
1f389 tada
1f38a confetti party_ball
1f38b wish_tree tanabata_tree
1f38c crossed_flags solidarity
1f38d bamboo
1f38e dolls
1f38f carp_streamer flags
1f390 wind_chime
1f391 moon_ceremony
1f392 backpack satchel
1f393 graduate mortar_board
1f396 military_medal
1f397 reminder_ribbon
1f399 studio_microphone
1f39a volume level_slider
1f39b control_knobs
1f39e film
1f39f ticket
1f3a0 carousel merry_go_round
1f3a1 ferris_wheel
1f3a2 roller_coaster
1f3a3 fishing
1f3a4 microphone mike mic
1f3a5 movie_camera
1f3a6 cinema movie_theater
1f3a7 headphones
1f3a8 art palette painting
1f3a9 top_hat
1f3aa circus
1f3ab pass
1f3ac action
1f3ad performing_arts drama theater
1f3ae video_game
1f3af direct_hit darts bulls_eye
1f3b0 slot_machine
1f3b1 billiards pool 8_ball
1f3b2 dice die
1f3b3 strike bowling
1f3b4 playing_cards
1f3b5 music
1f3b6 musical_notes
1f3b7 saxophone
1f3b8 guitar
1f3b9 piano musical_keyboard
1f3ba trumpet
1f3bb violin
1f3bc musical_score
1f3bd running_shirt
1f3be tennis
1f3bf ski
1f3c0 basketball
1f3c1 checkered_flag race go start
1f3c2 snowboarder
1f3c3 running runner
1f3c3-200d-2640 woman_running
1f3c3-200d-2642 man_running
1f3c4 surf
1f3c4-200d-2640 woman_surfing
1f3c4-200d-2642 man_surfing
1f3c5 medal
1f3c6 trophy winner
1f3c7 horse_racing horse_riding
1f3c8 american_football
1f3c9 rugby
1f3ca swim
1f3ca-200d-2640 woman_swimming
1f3ca-200d-2642 man_swimming
1f3cb lift work_out weight_lift gym
1f3cb-200d-2640 woman_lifting_weights
1f3cb-200d-2642 man_lifting_weights
1f3cc golf
1f3cc-200d-2640 woman_golfing
1f3cc-200d-2642 man_golfing
1f3cd motorcycle
1f3ce racecar
1f3cf cricket_game
1f3d0 volleyball
1f3d1 field_hockey
1f3d2 ice_hockey
1f3d3 ping_pong table_tennis
1f3d4 snowy_mountain
1f3d5 campsite
1f3d6 beach
1f3d7 construction
1f3d8 houses
1f3d9 city skyline
1f3da derelict_house condemned
1f3db classical_building
1f3dc desert
1f3dd island
1f3de national_park
1f3df stadium
1f3e0 house
1f3e1 suburb
1f3e2 office
1f3e3 japan_post
1f3e4 post_office
1f3e5 hospital
1f3e6 bank
1f3e7 atm
1f3e8 hotel
1f3e9 love_hotel
1f3ea convenience_store
1f3eb school
1f3ec department_store
1f3ed factory
1f3ee lantern izakaya_lantern
1f3ef shiro
1f3f0 castle
1f3f3 white_flag surrender
1f3f3-200d-26a7 transgender_flag light_blue pink
1f3f3-200d-1f308 rainbow_flag
1f3f4 black_flag
1f3f4-200d-2620 pirate_flag jolly_roger plunder
1f3f4-e0067-e0062-e0065-e006e-e0067-e007f flag_england
1f3f4-e0067-e0062-e0073-e0063-e0074-e007f flag_scotland
1f3f4-e0067-e0062-e0077-e006c-e0073-e007f flag_wales
1f3f5 rosette
1f3f7 label tag price_tag
1f3f8 badminton
1f3f9 bow_and_arrow archery
1f3fa vase amphora
`;
