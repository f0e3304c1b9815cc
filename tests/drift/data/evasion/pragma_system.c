#include "pragma_system.h"
int demo_pragma(void);
int demo_pragma(void) { return 0; }
