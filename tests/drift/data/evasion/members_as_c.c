/* The C++ registrations of members.cpp, in a source named .c that is
** compiled as C++ (CMake LANGUAGE CXX). */
#include "members.cpp"
