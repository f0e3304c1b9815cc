#include <demo_hidden.h>
int demo_isystem(void);
int demo_isystem(void) { return 0; }
