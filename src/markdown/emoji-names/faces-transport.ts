/** Zulip 9.0's emoji names, U+1F600–U+1F8FF: faces, gestures, transport and map symbols. Format: see index.ts. */
export const FACES_TRANSPORT = `
1f600 grinning happy
1f601 grinning_face_with_smiling_eyes
1f602 joy tears laughter_tears
1f603 smiley
1f604 big_smile
1f605 sweat_smile
1f606 laughing lol
1f607 innocent halo
1f608 smiling_devil smiling_imp smiling_face_with_horns
1f609 wink
1f60a blush
1f60b yum
1f60c relieved
1f60d heart_eyes in_love
1f60e sunglasses
1f60f smirk smug
1f610 neutral
1f611 expressionless
1f612 unamused
1f613 sweat
1f614 pensive tired
1f615 oh_no half_frown concerned confused
1f616 confounded agony
1f617 kissing_face
1f618 heart_kiss blow_a_kiss
1f619 kiss_smiling_eyes
1f61a kiss_with_blush
1f61b stuck_out_tongue mischievous
1f61c stuck_out_tongue_wink joking crazy
1f61d stuck_out_tongue_closed_eyes
1f61e disappointed
1f61f worried
1f620 angry
1f621 rage mad grumpy very_angry
1f622 cry
1f623 persevere helpless
1f624 triumph
1f625 exhausted disappointed_relieved stressed
1f626 frowning
1f627 anguished pained
1f628 fear scared shock
1f629 weary distraught
1f62a sleepy
1f62b anguish
1f62c grimacing nervous anxious
1f62d sob
1f62e open_mouth surprise
1f62e-200d-1f4a8 face_exhaling exhale gasp groan relief whisper whistle
1f62f hushed
1f630 cold_sweat
1f631 scream
1f632 astonished
1f633 flushed embarrassed blushing
1f634 sleeping
1f635 dizzy
1f635-200d-1f4ab face_with_spiral_eyes hypnotized trouble whoa
1f636 speechless no_mouth blank poker_face
1f636-200d-1f32b face_in_clouds absentminded face_in_the_fog head_in_clouds
1f637 mask
1f638 smile_cat
1f639 joy_cat
1f63a smiley_cat
1f63b heart_eyes_cat
1f63c smirk_cat smug_cat
1f63d kissing_cat
1f63e angry_cat pouting_cat
1f63f crying_cat
1f640 scream_cat weary_cat
1f641 frown slight_frown
1f642 smile
1f643 upside_down oops
1f644 rolling_eyes
1f645 no_signal nope
1f645-200d-2640 woman_gesturing_no
1f645-200d-2642 man_gesturing_no
1f646 ok_signal
1f646-200d-2640 woman_gesturing_ok
1f646-200d-2642 man_gesturing_ok
1f647 bow
1f647-200d-2640 woman_bowing
1f647-200d-2642 man_bowing
1f648 see_no_evil
1f649 hear_no_evil
1f64a speak_no_evil
1f64b raising_hand pick_me
1f64b-200d-2640 woman_raising_hand
1f64b-200d-2642 man_raising_hand
1f64c raised_hands praise
1f64d person_frowning
1f64d-200d-2640 woman_frowning
1f64d-200d-2642 man_frowning
1f64e person_pouting
1f64e-200d-2640 woman_pouting
1f64e-200d-2642 man_pouting
1f64f pray welcome thank_you namaste
1f680 rocket
1f681 helicopter
1f682 train steam_locomotive
1f683 railway_car train_car
1f684 high_speed_train
1f685 bullet_train
1f686 oncoming_train
1f687 subway
1f688 light_rail
1f689 station
1f68a oncoming_tram oncoming_streetcar oncoming_trolley
1f68b tram streetcar
1f68c bus school_bus
1f68d oncoming_bus
1f68e trolley
1f68f bus_stop
1f690 minibus
1f691 ambulance
1f692 fire_truck fire_engine
1f693 police_car
1f694 oncoming_police_car
1f695 taxi rideshare
1f696 oncoming_taxi
1f697 car
1f698 oncoming_car oncoming_automobile
1f699 recreational_vehicle jeep
1f69a moving_truck
1f69b truck tractor-trailer big_rig semi_truck transport_truck
1f69c tractor
1f69d monorail elevated_train
1f69e mountain_railway
1f69f suspension_railway
1f6a0 gondola mountain_cableway
1f6a1 aerial_tramway ski_lift
1f6a2 ship
1f6a3 rowboat crew sculling rowing
1f6a3-200d-2640 woman_rowing_boat
1f6a3-200d-2642 man_rowing_boat
1f6a4 speedboat
1f6a5 horizontal_traffic_light
1f6a6 traffic_light vertical_traffic_light
1f6a7 work_in_progress construction_zone
1f6a8 siren rotating_light alert
1f6a9 triangular_flag
1f6aa door
1f6ab prohibited not_allowed
1f6ac smoking
1f6ad no_smoking
1f6ae put_litter_in_its_place
1f6af do_not_litter
1f6b0 potable_water tap_water drinking_water
1f6b1 non-potable_water
1f6b2 bike bicycle
1f6b3 no_bicycles
1f6b4 cyclist
1f6b4-200d-2640 woman_biking
1f6b4-200d-2642 man_biking
1f6b5 mountain_biker
1f6b5-200d-2640 woman_mountain_biking
1f6b5-200d-2642 man_mountain_biking
1f6b6 walking pedestrian
1f6b6-200d-2640 woman_walking
1f6b6-200d-2642 man_walking
1f6b7 no_pedestrians
1f6b8 children_crossing school_crossing drive_with_care
1f6b9 mens
1f6ba womens
1f6bb restroom
1f6bc baby_change_station nursery
1f6bd toilet
1f6be wc water_closet
1f6bf shower
1f6c0 bath
1f6c1 bathtub
1f6c2 passport_control immigration
1f6c3 customs
1f6c4 baggage_claim
1f6c5 locker locked_bag
1f6cb living_room furniture couch_and_lamp lifestyles
1f6cc in_bed accommodations guestrooms
1f6cd shopping_bags
1f6ce bellhop_bell reception services ding
1f6cf bed bedroom
1f6d0 place_of_worship
1f6d1 stop_sign octagonal_sign
1f6d2 shopping_cart shopping_trolley
1f6d5 hindu_temple hindu temple
1f6d6 hut roundhouse yurt
1f6d7 elevator hoist
1f6dd playground_slide amusement_park
1f6de wheel tire turn
1f6df ring_buoy float life_preserver life_saver rescue
1f6e0 working_on_it hammer_and_wrench tools
1f6e1 shield
1f6e2 oil_drum commodities
1f6e3 road motorway
1f6e4 railway_track train_tracks
1f6e5 motor_boat
1f6e9 small_airplane
1f6eb take_off departure airplane_departure
1f6ec landing arrival airplane_arrival
1f6f0 satellite
1f6f3 passenger_ship yacht cruise
1f6f4 kick_scooter
1f6f5 scooter motor_bike
1f6f6 canoe
1f6f7 sled sledge sleigh
1f6f8 flying_saucer
1f6f9 skateboard board
1f6fa auto_rickshaw tuk_tuk
1f6fb pickup_truck pick_up pickup
1f6fc roller_skate roller skate
1f7e0 orange_circle
1f7e1 yellow_circle yellow
1f7e2 green_circle green
1f7e3 purple_circle
1f7e4 brown_circle
1f7e5 red_square red
1f7e6 blue_square
1f7e7 orange_square
1f7e8 yellow_large_square
1f7e9 green_large_square
1f7ea purple_square
1f7eb brown_square
1f7f0 heavy_equals_sign equality math
`;
