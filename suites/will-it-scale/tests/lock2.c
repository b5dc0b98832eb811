#include "testcase.h"

WIS_TESTCASE(lock2, "Same file write lock/unlock", name_prepare, name_rdwr_setup, lock1_run);
