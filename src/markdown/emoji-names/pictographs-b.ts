/** Zulip 9.0's emoji names, U+1F400–U+1F5FF: animals, people and body parts, objects. Format: see index.ts. */
export const PICTOGRAPHS_B = `
1f400 rat
1f401 mouse
1f402 ox bull
1f403 water_buffalo
1f404 cow
1f405 tiger
1f406 leopard
1f407 rabbit
1f408 cat meow
1f408-200d-2b1b black_cat black unlucky
1f409 dragon
1f40a crocodile
1f40b humpback_whale
1f40c snail
1f40d snake hiss
1f40e horse
1f40f ram
1f410 goat
1f411 sheep baa
1f412 monkey
1f413 rooster alarm cock-a-doodle-doo
1f414 chicken cluck
1f415 dog woof
1f415-200d-1f9ba service_dog assistance service
1f416 pig oink
1f417 boar
1f418 elephant
1f419 octopus
1f41a shell seashell conch spiral_shell
1f41b bug caterpillar
1f41c ant
1f41d bee buzz honeybee
1f41e lady_beetle ladybird ladybug
1f41f fish
1f420 tropical_fish
1f421 blowfish
1f422 turtle tortoise
1f423 hatching hatching_chick
1f424 chick baby_chick
1f425 new_baby
1f426 bird
1f427 penguin
1f428 koala
1f429 poodle
1f42a arabian_camel
1f42b camel
1f42c dolphin flipper
1f42d dormouse
1f42e calf
1f42f tiger_cub
1f430 bunny
1f431 kitten
1f432 dragon_face
1f433 whale
1f434 pony
1f435 monkey_face
1f436 puppy
1f437 piglet
1f438 frog
1f439 hamster
1f43a wolf
1f43b bear
1f43b-200d-2744 polar_bear arctic
1f43c panda
1f43d pig_nose
1f43e paw_prints paws
1f43f chipmunk
1f440 eyes looking
1f441 eye
1f441-200d-1f5e8 eye_in_speech_bubble speech witness
1f442 ear
1f443 nose
1f444 lips mouth
1f445 tongue
1f446 point_up this
1f447 point_down
1f448 point_left
1f449 point_right
1f44a fist_bump punch
1f44b wave hello hi
1f44c ok got_it
1f44d +1 thumbs_up like
1f44e -1 thumbs_down
1f44f clap applause
1f450 open_hands
1f451 crown queen king
1f452 hat
1f453 glasses spectacles
1f454 tie
1f455 shirt tshirt
1f456 jeans denim
1f457 dress
1f458 kimono
1f459 bikini
1f45a clothing
1f45b purse
1f45c handbag
1f45d pouch
1f45e shoe
1f45f athletic_shoe sneaker running_shoe
1f460 high_heels
1f461 sandal flip_flops
1f462 boot
1f463 footprints feet
1f464 silhouette shadow
1f465 silhouettes shadows
1f466 boy
1f467 girl
1f468 man
1f468-200d-2695 man_health_worker
1f468-200d-2696 man_judge
1f468-200d-2708 man_pilot
1f468-200d-2764-200d-1f468 couple_with_heart_man_man
1f468-200d-2764-200d-1f48b-200d-1f468 kiss_man_man
1f468-200d-1f33e man_farmer
1f468-200d-1f373 man_cook
1f468-200d-1f37c man_feeding_baby
1f468-200d-1f393 man_student
1f468-200d-1f3a4 man_singer
1f468-200d-1f3a8 man_artist
1f468-200d-1f3eb man_teacher
1f468-200d-1f3ed man_factory_worker
1f468-200d-1f466 family_man_boy
1f468-200d-1f466-200d-1f466 family_man_boy_boy
1f468-200d-1f467 family_man_girl
1f468-200d-1f467-200d-1f466 family_man_girl_boy
1f468-200d-1f467-200d-1f467 family_man_girl_girl
1f468-200d-1f468-200d-1f466 family_man_man_boy
1f468-200d-1f468-200d-1f466-200d-1f466 family_man_man_boy_boy
1f468-200d-1f468-200d-1f467 family_man_man_girl
1f468-200d-1f468-200d-1f467-200d-1f466 family_man_man_girl_boy
1f468-200d-1f468-200d-1f467-200d-1f467 family_man_man_girl_girl
1f468-200d-1f469-200d-1f466 family_man_woman_boy
1f468-200d-1f469-200d-1f466-200d-1f466 family_man_woman_boy_boy
1f468-200d-1f469-200d-1f467 family_man_woman_girl
1f468-200d-1f469-200d-1f467-200d-1f466 family_man_woman_girl_boy
1f468-200d-1f469-200d-1f467-200d-1f467 family_man_woman_girl_girl
1f468-200d-1f4bb man_technologist
1f468-200d-1f4bc man_office_worker
1f468-200d-1f527 man_mechanic
1f468-200d-1f52c man_scientist
1f468-200d-1f680 man_astronaut
1f468-200d-1f692 man_firefighter
1f468-200d-1f9af man_with_white_cane
1f468-200d-1f9b0 man_red_hair
1f468-200d-1f9b1 man_curly_hair
1f468-200d-1f9b2 man_bald
1f468-200d-1f9b3 man_white_hair
1f468-200d-1f9bc man_in_motorized_wheelchair
1f468-200d-1f9bd man_in_manual_wheelchair
1f469 woman
1f469-200d-2695 woman_health_worker
1f469-200d-2696 woman_judge
1f469-200d-2708 woman_pilot
1f469-200d-2764-200d-1f468 couple_with_heart_woman_man
1f469-200d-2764-200d-1f469 couple_with_heart_woman_woman
1f469-200d-2764-200d-1f48b-200d-1f468 kiss_woman_man
1f469-200d-2764-200d-1f48b-200d-1f469 kiss_woman_woman
1f469-200d-1f33e woman_farmer
1f469-200d-1f373 woman_cook
1f469-200d-1f37c woman_feeding_baby
1f469-200d-1f393 woman_student
1f469-200d-1f3a4 woman_singer
1f469-200d-1f3a8 woman_artist
1f469-200d-1f3eb woman_teacher
1f469-200d-1f3ed woman_factory_worker
1f469-200d-1f466 family_woman_boy
1f469-200d-1f466-200d-1f466 family_woman_boy_boy
1f469-200d-1f467 family_woman_girl
1f469-200d-1f467-200d-1f466 family_woman_girl_boy
1f469-200d-1f467-200d-1f467 family_woman_girl_girl
1f469-200d-1f469-200d-1f466 family_woman_woman_boy
1f469-200d-1f469-200d-1f466-200d-1f466 family_woman_woman_boy_boy
1f469-200d-1f469-200d-1f467 family_woman_woman_girl
1f469-200d-1f469-200d-1f467-200d-1f466 family_woman_woman_girl_boy
1f469-200d-1f469-200d-1f467-200d-1f467 family_woman_woman_girl_girl
1f469-200d-1f4bb woman_technologist
1f469-200d-1f4bc woman_office_worker
1f469-200d-1f527 woman_mechanic
1f469-200d-1f52c woman_scientist
1f469-200d-1f680 woman_astronaut
1f469-200d-1f692 woman_firefighter
1f469-200d-1f9af woman_with_white_cane
1f469-200d-1f9b0 woman_red_hair
1f469-200d-1f9b1 woman_curly_hair
1f469-200d-1f9b2 woman_bald
1f469-200d-1f9b3 woman_white_hair
1f469-200d-1f9bc woman_in_motorized_wheelchair
1f469-200d-1f9bd woman_in_manual_wheelchair
1f46a family
1f46b man_and_woman_holding_hands man_and_woman_couple
1f46c two_men_holding_hands men_couple
1f46d two_women_holding_hands women_couple
1f46e police cop
1f46e-200d-2640 woman_police_officer
1f46e-200d-2642 man_police_officer
1f46f dancers
1f46f-200d-2640 women_with_bunny_ears
1f46f-200d-2642 men_with_bunny_ears
1f470 bride
1f470-200d-2640 woman_with_veil
1f470-200d-2642 man_with_veil
1f471 person_blond_hair blond_haired_person
1f471-200d-2640 woman_blond_hair blond_haired_woman blonde
1f471-200d-2642 man_blond_hair blond_haired_man
1f472 gua_pi_mao
1f473 turban
1f473-200d-2640 woman_wearing_turban
1f473-200d-2642 man_wearing_turban
1f474 older_man elderly_man
1f475 older_woman elderly_woman
1f476 baby
1f477 construction_worker
1f477-200d-2640 woman_construction_worker
1f477-200d-2642 man_construction_worker
1f478 princess
1f479 ogre
1f47a goblin
1f47b ghost boo spooky haunted
1f47c angel
1f47d alien ufo
1f47e space_invader
1f47f devil imp angry_devil
1f480 skull
1f481 information_desk_person person_tipping_hand
1f481-200d-2640 woman_tipping_hand
1f481-200d-2642 man_tipping_hand
1f482 guard
1f482-200d-2640 woman_guard
1f482-200d-2642 man_guard
1f483 dancer
1f484 lipstick
1f485 nail_polish nail_care
1f486 massage
1f486-200d-2640 woman_getting_massage
1f486-200d-2642 man_getting_massage
1f487 haircut
1f487-200d-2640 woman_getting_haircut
1f487-200d-2642 man_getting_haircut
1f488 barber striped_pole
1f489 injection syringe
1f48a medicine pill
1f48b lipstick_kiss
1f48c love_letter
1f48d ring
1f48e gem crystal
1f48f kiss
1f490 bouquet
1f491 couple_with_heart
1f492 wedding
1f493 heartbeat
1f494 broken_heart heartache
1f495 two_hearts
1f496 sparkling_heart
1f497 heart_pulse growing_heart
1f498 cupid smitten heart_arrow
1f499 blue_heart
1f49a green_heart envy
1f49b yellow_heart heart_of_gold
1f49c purple_heart bravery
1f49d gift_heart
1f49e revolving_hearts
1f49f heart_box
1f4a0 cute kawaii diamond_with_a_dot
1f4a1 light_bulb bulb idea
1f4a2 anger bam pow
1f4a3 bomb
1f4a4 zzz
1f4a5 boom explosion crash collision
1f4a6 sweat_drops
1f4a7 drop water_drop
1f4a8 dash
1f4a9 poop pile_of_poo
1f4aa muscle
1f4ab seeing_stars
1f4ac umm speech_balloon
1f4ad thought dream
1f4ae white_flower
1f4af 100 hundred
1f4b0 money
1f4b1 exchange
1f4b2 dollars
1f4b3 credit_card debit_card
1f4b4 yen_banknotes
1f4b5 dollar_bills
1f4b6 euro_banknotes
1f4b7 pound_notes
1f4b8 losing_money easy_come_easy_go money_with_wings
1f4b9 stock_market
1f4ba seat
1f4bb computer laptop
1f4bc briefcase
1f4bd gold_record minidisc
1f4be floppy_disk
1f4bf cd
1f4c0 dvd
1f4c1 organize file_folder
1f4c2 folder
1f4c3 page_with_curl curl
1f4c4 document paper file page
1f4c5 calendar
1f4c6 date
1f4c7 rolodex card_index
1f4c8 chart upwards_trend growing increasing
1f4c9 downwards_trend shrinking decreasing
1f4ca bar_chart
1f4cb clipboard
1f4cc push_pin thumb_tack
1f4cd pin sewing_pin
1f4ce paperclip attachment
1f4cf ruler straightedge
1f4d0 carpenter_square triangular_ruler
1f4d1 place_holder
1f4d2 ledger spiral_notebook
1f4d3 notebook composition_book
1f4d4 decorative_notebook
1f4d5 red_book closed_book
1f4d6 book open_book
1f4d7 green_book
1f4d8 blue_book
1f4d9 orange_book
1f4da books
1f4db name_badge
1f4dc scroll
1f4dd memo note
1f4de landline home_phone
1f4df pager
1f4e0 fax
1f4e1 satellite_antenna
1f4e2 loudspeaker bullhorn
1f4e3 megaphone shout
1f4e4 outbox
1f4e5 inbox
1f4e6 package
1f4e7 e-mail
1f4e8 mail_received
1f4e9 mail_sent sealed
1f4ea closed_mailbox
1f4eb mailbox
1f4ec unread_mail
1f4ed inbox_zero empty_mailbox no_mail
1f4ee mail_dropoff
1f4ef horn
1f4f0 headlines
1f4f1 mobile_phone smartphone iphone android
1f4f2 calling
1f4f3 vibration_mode
1f4f4 phone_off
1f4f5 no_phones
1f4f6 cell_reception signal_strength signal_bars
1f4f7 camera
1f4f8 taking_a_picture say_cheese
1f4f9 video_camera video_recorder
1f4fa tv television
1f4fb radio
1f4fc vhs videocassette
1f4fd projector movie
1f4ff prayer_beads
1f500 shuffle
1f501 repeat
1f502 repeat_one
1f503 clockwise
1f504 counterclockwise return
1f505 low_brightness dim
1f506 brightness high_brightness
1f507 mute no_sound
1f508 speaker
1f509 softer
1f50a louder sound
1f50b battery full_battery
1f50c electric_plug
1f50d search find magnifying_glass
1f50e magnifying_glass_tilted_right magnifying
1f50f privacy key_signing digital_security protected
1f510 secure lock_with_key safe commitment loyalty
1f511 key
1f512 locked
1f513 unlocked
1f514 notifications bell
1f515 mute_notifications
1f516 bookmark
1f517 link
1f518 radio_button
1f519 back
1f51a end
1f51b on
1f51c soon
1f51d top
1f51e underage nc17
1f51f ten
1f520 capital_abcd capital_letters
1f521 abcd alphabet
1f522 1234 numbers
1f523 symbols
1f524 abc
1f525 fire lit hot flame
1f526 flashlight
1f527 fixing wrench
1f528 hammer maintenance handyman handywoman
1f529 nut_and_bolt screw
1f52a knife hocho betrayed
1f52b gun
1f52c science microscope
1f52d telescope
1f52e crystal_ball oracle future fortune_telling
1f52f dotted_six_pointed_star fortune
1f530 beginner
1f531 trident
1f532 white_and_black_square
1f533 black_and_white_square
1f534 red_circle
1f535 blue_circle
1f536 large_orange_diamond
1f537 large_blue_diamond
1f538 small_orange_diamond
1f539 small_blue_diamond
1f53a red_triangle_up
1f53b red_triangle_down
1f53c upvote up_button increase
1f53d downvote down_button decrease
1f549 om hinduism
1f54a dove dove_of_peace
1f54b kaaba
1f54c mosque
1f54d synagogue
1f54e menorah
1f557 time clock
1f56f candle
1f570 mantelpiece_clock
1f573 hole
1f574 levitating hover
1f575 detective spy sleuth agent sneaky
1f575-200d-2640 woman_detective
1f575-200d-2642 man_detective
1f576 dark_sunglasses
1f577 spider
1f578 web spider_web
1f579 joystick arcade
1f57a dancing disco
1f587 office_supplies paperclip_chain linked
1f58a pen ballpoint_pen
1f58b fountain_pen
1f58c paintbrush
1f58d crayon
1f590 high_five palm
1f595 middle_finger
1f596 spock live_long_and_prosper
1f5a4 black_heart
1f5a5 desktop_computer
1f5a8 printer
1f5b1 computer_mouse
1f5b2 trackball
1f5bc picture framed_picture
1f5c2 sort
1f5c3 archive
1f5c4 file_cabinet
1f5d1 wastebasket trash_can
1f5d2 spiral_notepad
1f5d3 spiral_calendar pad
1f5dc compression vise
1f5dd secret dungeon old_key encrypted clue hint
1f5de newspaper swat
1f5e1 dagger rated_for_violence
1f5e3 speaking_head
1f5e8 speech_bubble
1f5ef anger_bubble
1f5f3 ballot_box
1f5fa map world_map road_trip
1f5fb mount_fuji
1f5fc tower tokyo_tower
1f5fd statue new_york statue_of_liberty
1f5fe japan
1f5ff rock_carving moyai
`;
