/** Zulip 9.0's emoji names, Emoji below U+1F000: keycaps, arrows, symbols and dingbats. Format: see index.ts. */
export const SYMBOLS = `
0023-20e3 hash
002a-20e3 asterisk
0030-20e3 zero
0031-20e3 one
0032-20e3 two
0033-20e3 three
0034-20e3 four
0035-20e3 five
0036-20e3 six
0037-20e3 seven
0038-20e3 eight
0039-20e3 nine
00a9 copyright c
00ae registered r
203c bangbang double_exclamation
2049 interrobang
2122 tm trademark
2139 info
2194 left_right swap
2195 up_down
2196 upper_left north_west
2197 upper_right north_east
2198 lower_right south_east
2199 lower_left south_west
21a9 reply left_hook
21aa forward right_hook
231a watch
231b times_up hourglass_done
2328 keyboard
23cf eject_button eject
23e9 fast_forward
23ea rewind fast_reverse
23eb double_up fast_up
23ec double_down fast_down
23ed next_track skip_forward
23ee previous_track skip_back
23ef play_pause
23f0 alarm_clock
23f1 stopwatch
23f2 timer
23f3 time_ticking hourglass
23f8 pause
23f9 stop_button
23fa record
24c2 metro m
25aa black_small_square
25ab white_small_square
25b6 play
25c0 play_reverse
25fb white_medium_square
25fc black_medium_square
25fd white_medium_small_square
25fe black_medium_small_square
2600 sunny
2601 cloud overcast
2602 umbrella
2603 snowman
2604 comet meteor
260e phone telephone
2611 checkbox
2614 umbrella_with_rain
2615 coffee
2618 shamrock clover
261d wait_one_second point_of_information asking_a_question
2620 skull_and_crossbones pirate death hazard toxic poison
2622 radioactive nuclear
2623 biohazard
2626 orthodox_cross
262a star_and_crescent islam
262e peace
262f yin_yang
2638 wheel_of_dharma buddhism
2639 sad big_frown
263a smiling_face relaxed
2640 female_sign
2642 male_sign
2648 aries
2649 taurus
264a gemini
264b cancer
264c leo
264d virgo
264e libra
264f scorpius
2650 sagittarius
2651 capricorn
2652 aquarius
2653 pisces
265f chess_pawn chess dupe expendable
2660 spades
2663 clubs
2665 hearts
2666 diamonds
2668 hot_springs
267b recycle
267e infinity forever unbounded universal
267f accessible wheelchair disabled
2692 at_work hammer_and_pick
2693 anchor
2694 duel swords
2695 medical_symbol aesculapius staff
2696 justice scales balance
2697 alchemy alembic
2699 gear settings mechanical engineer
269b atom physics
269c fleur_de_lis
26a0 warning caution danger
26a1 high_voltage zap
26a7 transgender_symbol
26aa white_circle
26ab black_circle
26b0 coffin burial grave
26b1 funeral_urn cremation
26bd football soccer
26be baseball
26c4 frosty
26c5 partly_sunny partly_cloudy
26c8 thunderstorm thunder_and_rain
26ce ophiuchus
26cf mine pick
26d1 helmet hard_hat rescue_worker safety_first invincible
26d3 chains
26d4 no_entry wrong_way
26e9 shinto_shrine
26ea church
26f0 mountain
26f1 beach_umbrella
26f2 fountain
26f3 hole_in_one
26f4 ferry
26f5 boat sailboat
26f7 skier
26f8 ice_skate
26f9 ball sports
26f9-200d-2640 woman_bouncing_ball
26f9-200d-2642 man_bouncing_ball
26fa tent camping
26fd fuel_pump gas_pump petrol_pump
2702 scissors
2705 check all_good approved
2708 airplane
2709 email envelope mail
270a fist power
270b hand raised_hand
270c peace_sign victory
270d writing
270f pencil
2712 black_nib nib
2714 check_mark
2716 multiplication multiply
271d cross christianity
2721 star_of_david judaism
2728 sparkles glamour
2733 eight_spoked_asterisk
2734 eight_pointed_star
2744 snowflake
2747 sparkle
274c cross_mark incorrect wrong
274e x
2753 question
2754 grey_question
2755 grey_exclamation
2757 exclamation
2763 heart_exclamation
2764 heart love love_you
2764-200d-1f525 heart_on_fire burn lust sacred_heart
2764-200d-1fa79 mending_heart healthier improving mending recovering recuperating well
2795 plus add
2796 minus subtract
2797 division divide
27a1 right east
27b0 loop
27bf double_loop voicemail
2934 heading_up
2935 heading_down
2b05 left west
2b06 up north
2b07 down south
2b1b black_large_square
2b1c white_large_square
2b50 star
2b55 circle
3030 wavy_dash
303d part_alternation
3297 japanese_congratulations_button congratulations
3299 japanese_secret_button
`;
