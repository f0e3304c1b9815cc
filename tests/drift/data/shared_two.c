#include "shared_handler.h"
int demo_two(void);
int demo_two(void) { return 2; }
