#ifndef WEATHER_UNITS_H
#define WEATHER_UNITS_H

#if WEATHER_UNITS_METRIC
#define WEATHER_UNIT "C"
#else
#define WEATHER_UNIT "F"
#endif

#endif
