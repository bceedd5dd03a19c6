int xnn_kai_check_c(void);
int xnn_kai_check_cc(void);

int main(void) { return xnn_kai_check_c() | xnn_kai_check_cc(); }
