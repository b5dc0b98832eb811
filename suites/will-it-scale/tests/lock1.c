#include "testcase.h"

WIS_TESTCASE(lock1, "Separate file write lock/unlock", NULL, empty_file_setup, lock1_run);
