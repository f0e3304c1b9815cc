#ifndef WEATHER_UNITS_H
#define WEATHER_UNITS_H

/* The check must see the target's own flags, set after toolgov_add_plugin(). */
#ifndef WEATHER_UNITS_METRIC
#error "WEATHER_UNITS_METRIC is set by target_compile_definitions()"
#endif
#if !defined(__STDC_VERSION__) || __STDC_VERSION__ != 199901L || !defined(__STRICT_ANSI__)
#error "the target's C_STANDARD 99 with C_EXTENSIONS OFF means -std=c99"
#endif

#if WEATHER_UNITS_METRIC
#define WEATHER_UNIT "C"
#else
#define WEATHER_UNIT "F"
#endif

#endif
