#include "testcase.h"

WIS_TESTCASE(lseek2, "Same file lseek", name_buf_prepare, name_rdwr_setup, lseek1_run);
