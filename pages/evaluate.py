import streamlit as st; st.title("Evaluate")
