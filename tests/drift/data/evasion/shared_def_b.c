/* b */
#include "shared_def.h"
int demo_b(void);
int demo_b(void) { return 2; }
