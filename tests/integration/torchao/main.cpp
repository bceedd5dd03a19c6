int torchao_kai_check();

int main() { return torchao_kai_check(); }
