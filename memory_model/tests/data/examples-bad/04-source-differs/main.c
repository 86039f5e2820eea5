/* Litmus: MP+putsig+add. */
int main(void) {
    return 0;
}
