#include "shared_def.h"
int demo_a(void);
int demo_a(void) { return 1; }
