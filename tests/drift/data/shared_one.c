#include "shared_handler.h"
int demo_one(void);
int demo_one(void) { return 1; }
